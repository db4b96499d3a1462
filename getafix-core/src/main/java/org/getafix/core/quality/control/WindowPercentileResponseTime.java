package org.getafix.core.quality.control;

import org.HdrHistogram.Histogram;

import java.util.ArrayDeque;

/**
 * A percentile of the most recent responses (the budget paper's P90 over the last 1000 queries, §4.7), kept in an
 * HdrHistogram at 2 significant digits (1% resolution, microsecond units). The window slides in tenths: responses
 * are recorded into the current slice and the oldest slice is subtracted once the window is full, so the estimate
 * covers between 90% and 100% of {@code windowSize} responses and costs O(1) histogram work per response plus one
 * subtraction per slice. Not thread-safe.
 */
public final class WindowPercentileResponseTime implements ResponseTimeEstimator
{
  public static final int DEFAULT_WINDOW = 1000;
  public static final double DEFAULT_PERCENTILE = 90;
  private static final int SLICES = 10;
  private static final int SIGNIFICANT_DIGITS = 2;

  private final double percentile;
  private final int sliceSize;
  private final Histogram window = newHistogram();
  private final ArrayDeque<Histogram> slices = new ArrayDeque<>();
  private Histogram current = newHistogram();
  private int inCurrent;

  /**
   * @param windowSize responses in the window, ≥ 10
   * @param percentile in (0, 100]
   */
  public WindowPercentileResponseTime(int windowSize, double percentile)
  {
    if (windowSize < SLICES) {
      throw new IllegalArgumentException("percentile window must hold >= " + SLICES + " responses, got [" + windowSize + "]");
    }
    if (!(percentile > 0 && percentile <= 100)) {
      throw new IllegalArgumentException("percentile must be in (0, 100], got [" + percentile + "]");
    }
    this.percentile = percentile;
    this.sliceSize = windowSize / SLICES;
  }

  @Override
  public void record(double millis)
  {
    final long micros = Math.round(Math.min(millis, Long.MAX_VALUE / 2e3) * 1e3);
    window.recordValue(micros);
    current.recordValue(micros);
    if (++inCurrent == sliceSize) {
      slices.addLast(current);
      if (slices.size() == SLICES) {
        final Histogram oldest = slices.removeFirst();
        window.subtract(oldest);
        oldest.reset();
        current = oldest;
      } else {
        current = newHistogram();
      }
      inCurrent = 0;
    }
  }

  @Override
  public double estimate()
  {
    // The middle of the percentile's bucket: getValueAtPercentile reports the bucket's top, 1% high at 2 digits.
    return window.getTotalCount() == 0
           ? Double.NaN
           : window.medianEquivalentValue(window.getValueAtPercentile(percentile)) / 1e3;
  }

  private static Histogram newHistogram()
  {
    final Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);
    histogram.setAutoResize(true);
    return histogram;
  }
}
