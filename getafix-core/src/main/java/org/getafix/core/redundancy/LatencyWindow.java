package org.getafix.core.redundancy;

import org.HdrHistogram.IntCountsHistogram;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * One node's sub-query latencies over a sliding time window, and its arrival rate over that window.
 *
 * <p>The window is {@value #SLICES} interval histograms of {@code window / }{@value #SLICES} each, rotated by the
 * injected clock: a slice whose interval has passed is subtracted from the running window histogram and reused, so
 * the window covers between 9/10 and all of {@code window} and recording stays O(1). Latencies are kept in
 * microseconds at 2 significant digits (1% resolution); mean and C_v² come from exact per-slice sums, not from the
 * buckets. A value above {@value #MAX_MILLIS} ms is recorded as that (still a very slow answer); NaN, infinite and
 * negative values are ignored and counted in {@link #ignored()}.
 *
 * <p>Thread-safe: query threads record and read concurrently; every method locks the instance.
 */
public final class LatencyWindow implements LatencyDistribution
{
  static final int SLICES = 10;
  static final double MAX_MILLIS = 3_600_000;
  private static final int SIGNIFICANT_DIGITS = 2;

  private final long sliceNanos;
  private final LongSupplier nanoClock;
  private final IntCountsHistogram window = newHistogram();
  private final IntCountsHistogram[] slices = new IntCountsHistogram[SLICES];
  private final double[] sliceSums = new double[SLICES];
  private final double[] sliceSquares = new double[SLICES];
  private double sum;
  private double squares;
  private long currentSlice;
  private long firstRecordNanos;
  private boolean recorded;
  private long lastRecordNanos;
  private long ignored;

  /**
   * @param window    the span of recent observations kept, at least {@value #SLICES} ns
   * @param nanoClock the clock that rotates the window
   */
  public LatencyWindow(Duration window, LongSupplier nanoClock)
  {
    this.sliceNanos = sliceNanos(window);
    this.nanoClock = nanoClock;
    for (int i = 0; i < SLICES; i++) {
      slices[i] = newHistogram();
    }
    this.currentSlice = Math.floorDiv(nanoClock.getAsLong(), sliceNanos);
  }

  /** The length of one slice of {@code window}; throws if the window is too short to slice. */
  static long sliceNanos(Duration window)
  {
    if (window == null || window.toNanos() < SLICES) {
      throw new IllegalArgumentException("latency window must be >= " + SLICES + " ns, got [" + window + "]");
    }
    return window.toNanos() / SLICES;
  }

  /** Whether a latency observation is one a window records (finite, not negative). */
  static boolean isValid(double millis)
  {
    return Double.isFinite(millis) && millis >= 0;
  }

  /** Records one completed sub-query's latency; returns false (and counts it) if the value is garbage. */
  public synchronized boolean record(double millis)
  {
    if (!isValid(millis)) {
      ignored++;
      return false;
    }
    final long now = nanoClock.getAsLong();
    rotate(now);
    final double value = Math.min(millis, MAX_MILLIS);
    final long micros = Math.round(value * 1e3);
    final int slot = slot(currentSlice);
    window.recordValue(micros);
    slices[slot].recordValue(micros);
    sliceSums[slot] += value;
    sliceSquares[slot] += value * value;
    sum += value;
    squares += value * value;
    if (!recorded) {
      recorded = true;
      firstRecordNanos = now;
    }
    lastRecordNanos = now;
    return true;
  }

  @Override
  public synchronized double cdf(double millis)
  {
    rotate(nanoClock.getAsLong());
    if (window.getTotalCount() == 0 || Double.isNaN(millis)) {
      return Double.NaN;
    }
    if (millis < 0) {
      return 0;
    }
    return window.getPercentileAtOrBelowValue(Math.round(Math.min(millis, MAX_MILLIS) * 1e3)) / 100;
  }

  @Override
  public synchronized double quantile(double q)
  {
    rotate(nanoClock.getAsLong());
    if (window.getTotalCount() == 0 || !(q >= 0 && q <= 1)) {
      return Double.NaN;
    }
    // The middle of the quantile's bucket: getValueAtPercentile reports the bucket's top, 1% high at 2 digits.
    return window.medianEquivalentValue(window.getValueAtPercentile(q * 100)) / 1e3;
  }

  @Override
  public synchronized double mean()
  {
    rotate(nanoClock.getAsLong());
    final long count = window.getTotalCount();
    return count == 0 ? Double.NaN : sum / count;
  }

  @Override
  public synchronized double scv()
  {
    rotate(nanoClock.getAsLong());
    final long count = window.getTotalCount();
    if (count == 0) {
      return Double.NaN;
    }
    final double mean = sum / count;
    if (mean == 0) {
      return 0;
    }
    final double variance = Math.max(0, squares / count - mean * mean);
    return variance / (mean * mean);
  }

  @Override
  public synchronized long count()
  {
    rotate(nanoClock.getAsLong());
    return window.getTotalCount();
  }

  /**
   * Sub-queries completed per second over the window. While the node has been observed for less than a window, the
   * rate is over the time since its first observation (at least one slice), so a new node's rate is not diluted.
   */
  public synchronized double arrivalRatePerSecond()
  {
    final long now = nanoClock.getAsLong();
    rotate(now);
    final long count = window.getTotalCount();
    if (count == 0) {
      return 0;
    }
    final long windowNanos = sliceNanos * SLICES;
    final long covered = Math.max(sliceNanos, Math.min(windowNanos, now - firstRecordNanos));
    return count * 1e9 / covered;
  }

  /** Observations ignored as garbage. */
  public synchronized long ignored()
  {
    return ignored;
  }

  /** Whether nothing was recorded at or after {@code cutoffNanos}. */
  synchronized boolean silentSince(long cutoffNanos)
  {
    return !recorded || lastRecordNanos - cutoffNanos < 0;
  }

  private void rotate(long now)
  {
    final long target = Math.floorDiv(now, sliceNanos);
    if (target <= currentSlice) {
      return;
    }
    final long expired = Math.min(target - currentSlice, SLICES);
    for (long i = 1; i <= expired; i++) {
      final int slot = slot(currentSlice + i);
      if (slices[slot].getTotalCount() > 0) {
        window.subtract(slices[slot]);
        slices[slot].reset();
      }
      sliceSums[slot] = 0;
      sliceSquares[slot] = 0;
    }
    currentSlice = target;
    // Summed afresh rather than decremented, so rounding does not accumulate over a long-lived window.
    sum = 0;
    squares = 0;
    for (int slot = 0; slot < SLICES; slot++) {
      sum += sliceSums[slot];
      squares += sliceSquares[slot];
    }
  }

  private static int slot(long slice)
  {
    return (int) Math.floorMod(slice, (long) SLICES);
  }

  private static IntCountsHistogram newHistogram()
  {
    final IntCountsHistogram histogram = new IntCountsHistogram(SIGNIFICANT_DIGITS);
    histogram.setAutoResize(true);
    return histogram;
  }
}
