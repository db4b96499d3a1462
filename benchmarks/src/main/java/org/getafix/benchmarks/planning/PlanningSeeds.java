package org.getafix.benchmarks.planning;

/** The seed every planning benchmark generates its cluster with, so that Getafix and Druid see the same world. */
final class PlanningSeeds
{
  static final long CLUSTER = 20261122L;

  private PlanningSeeds()
  {
  }
}
