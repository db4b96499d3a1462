package org.getafix.simulator.report;

/**
 * The controller of one run, read every control interval (10 answered queries): the budget paper's Fig 11.
 *
 * @param seconds          simulated time of each reading
 * @param responseMillis   the controlled statistic (EWMA of the response time)
 * @param control          the controller's output: the budget (ms) or the queue limit
 * @param stepAtSeconds    when the load stepped; NaN without a step
 */
public record ControlTrace(double[] seconds, double[] responseMillis, double[] control, double stepAtSeconds)
{
}
