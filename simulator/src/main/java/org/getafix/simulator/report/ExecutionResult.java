package org.getafix.simulator.report;

/**
 * One run's figures of budgeted execution or admission control (docs/scenarios.md, "Budgeted execution"), over the
 * queries that arrived in the measured window.
 *
 * @param execution               full, budget-hybrid, budget-integral, budget-adaptive or queue-admission
 * @param scheme                  the run's label before a load sweep expanded it
 * @param loadFactor              the clients' rate multiplier (before any load step)
 * @param offeredQueriesPerSecond queries that arrived per second
 * @param answeredQueriesPerSecond queries answered (in full or in part) per second
 * @param rejectedFraction        share of the offered queries rejected by queue-length admission
 * @param partialFraction         share of the offered queries answered at their deadline with part of their segments
 * @param meanQuality             mean answer quality over the offered queries (a rejected one counts 0), with the
 *                                scenario's quality profiles
 * @param meanCompletedFraction   mean completed fraction of segments over the offered queries: the quality under a
 *                                linear profile
 * @param meanResponseMillis      mean response time of the answered queries
 * @param responseTargetMillis    the target the controllers hold
 * @param meanControl             the controller's output, averaged over arrivals: the budget (ms) or the queue limit;
 *                                NaN for full execution
 * @param settlingIntervals       after a load step, control intervals (10 answers each) until the controlled mean,
 *                                smoothed over 100 readings, stays within ±10% of the target up to the end of
 *                                injection (all the intervals after the step when it never does); null without a step
 * @param reachIntervals          after a load step, control intervals until that smoothed mean first comes within
 *                                ±10% of the target (all the intervals after the step when it never does); null
 *                                without a step
 * @param steadyStateError        after a load step, |mean response time − target| / target over the second half of
 *                                the rest of the run; null without a step
 */
public record ExecutionResult(
    String execution,
    String scheme,
    double loadFactor,
    double offeredQueriesPerSecond,
    double answeredQueriesPerSecond,
    double rejectedFraction,
    double partialFraction,
    double meanQuality,
    double meanCompletedFraction,
    double meanResponseMillis,
    double responseTargetMillis,
    double meanControl,
    Integer settlingIntervals,
    Integer reachIntervals,
    Double steadyStateError
)
{
}
