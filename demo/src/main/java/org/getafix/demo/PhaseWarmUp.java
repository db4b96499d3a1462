package org.getafix.demo;

/**
 * How one phase was warmed before its measurement: every phase the same way, first the workload until placement
 * settled, then in windows until the Historicals' JIT compilers settled. A fresh cluster's Historicals spend a large
 * share of their capped CPU compiling Druid's query path, so without the second step the phase that runs first is
 * measured with its compilers and the later one without.
 *
 * @param placementSeconds  workload run from the hand-over of placement until it settled (or timed out)
 * @param jitSeconds        workload run after that until the compilers settled (or the warm-up's deadline passed)
 * @param jitWindows        windows of that JIT warm-up (0 where /proc cannot tell)
 * @param jitShareAtEnd     the largest share of a Historical's CPU its JIT compilers took in the last window (NaN
 *                          where /proc cannot tell)
 * @param jitShareMeasured  the same over the measured window
 */
public record PhaseWarmUp(
    double placementSeconds,
    double jitSeconds,
    int jitWindows,
    double jitShareAtEnd,
    double jitShareMeasured
)
{
  public double seconds()
  {
    return placementSeconds + jitSeconds;
  }
}
