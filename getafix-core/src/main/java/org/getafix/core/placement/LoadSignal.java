package org.getafix.core.placement;

/** What a segment's load is for a placement strategy: the value a {@link PlanningRound} passes as its load. */
public enum LoadSignal
{
  /** Popularity(s) = decay · Popularity(s) + AccessTime(s) (thesis §2.2): Getafix, its variants and Druid's default. */
  ACCESS_TIME_POPULARITY,
  /** Peak concurrent accesses in the round: Scarlett (EuroSys'11), which adds one replica per concurrent reader. */
  PEAK_CONCURRENT_ACCESSES
}
