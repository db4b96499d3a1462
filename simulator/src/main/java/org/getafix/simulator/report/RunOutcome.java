package org.getafix.simulator.report;

/** One run of a scenario: its label, summary figures and plot data. */
public record RunOutcome(String label, RunResult result, RunTrace trace)
{
}
