package org.getafix.core.quality.split;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Learns a {@link QualityProfile} per query class (e.g. datasource + query type) from mature runs: each sampled
 * query gives one (completed fraction of segments, measured quality) pair. Samples fall into equal-width fraction
 * bins; the profile is the least concave majorant of the bin means, anchored at (0, 0) and (1, 1) (a query that
 * completed every segment has the mature answer), which is non-decreasing and concave by construction, as MaxQuality
 * needs. The majorant is optimistic where bins are sparse; bins with fewer than {@code minSamples} samples are left
 * out. A class with no usable bin gets {@link QualityProfile#LINEAR}.
 *
 * <p>Thread-safe: samples from query threads update per-class bins under that class's lock; {@link #profile}
 * builds a fresh immutable profile.
 */
public final class QualityProfileLearner
{
  public static final int DEFAULT_BINS = 10;
  public static final int DEFAULT_MIN_SAMPLES = 5;

  private final int bins;
  private final int minSamples;
  private final ConcurrentHashMap<String, Bins> classes = new ConcurrentHashMap<>();

  public QualityProfileLearner()
  {
    this(DEFAULT_BINS, DEFAULT_MIN_SAMPLES);
  }

  /**
   * @param bins       fraction bins, ≥ 1
   * @param minSamples samples a bin needs before it shapes the profile, ≥ 1
   */
  public QualityProfileLearner(int bins, int minSamples)
  {
    if (bins < 1 || minSamples < 1) {
      throw new IllegalArgumentException("bins and minSamples must be >= 1, got [" + bins + ", " + minSamples + "]");
    }
    this.bins = bins;
    this.minSamples = minSamples;
  }

  /**
   * Records one mature comparison. Samples with a fraction or quality outside [0, 1] (or NaN), or a null class, are
   * ignored: this runs on query threads and never throws.
   */
  public void record(String queryClass, double completedFraction, double quality)
  {
    if (queryClass == null || !(completedFraction >= 0 && completedFraction <= 1) || !(quality >= 0 && quality <= 1)) {
      return;
    }
    classes.computeIfAbsent(queryClass, c -> new Bins(bins)).add(completedFraction, quality);
  }

  /** The query classes recorded so far. */
  public Set<String> queryClasses()
  {
    return Set.copyOf(classes.keySet());
  }

  /** The learned profile of {@code queryClass}, {@link QualityProfile#LINEAR} when nothing usable was recorded. */
  public QualityProfile profile(String queryClass)
  {
    final Bins classBins = queryClass == null ? null : classes.get(queryClass);
    return classBins == null ? QualityProfile.LINEAR : classBins.profile(minSamples);
  }

  private static final class Bins
  {
    private final long[] counts;
    private final double[] fractionSums;
    private final double[] qualitySums;

    Bins(int bins)
    {
      counts = new long[bins];
      fractionSums = new double[bins];
      qualitySums = new double[bins];
    }

    synchronized void add(double fraction, double quality)
    {
      final int bin = Math.min(counts.length - 1, (int) (fraction * counts.length));
      counts[bin]++;
      fractionSums[bin] += fraction;
      qualitySums[bin] += quality;
    }

    synchronized QualityProfile profile(int minSamples)
    {
      final List<double[]> points = new ArrayList<>();
      points.add(new double[]{0, 0});
      for (int bin = 0; bin < counts.length; bin++) {
        if (counts[bin] >= minSamples) {
          final double x = fractionSums[bin] / counts[bin];
          if (x > 0 && x < 1) {
            points.add(new double[]{x, qualitySums[bin] / counts[bin]});
          }
        }
      }
      points.add(new double[]{1, 1});
      return upperHull(points);
    }

    /** Least concave majorant of points sorted by x (Andrew's monotone chain, upper half). */
    private static QualityProfile upperHull(List<double[]> points)
    {
      final List<double[]> hull = new ArrayList<>();
      for (double[] p : points) {
        while (hull.size() >= 2 && cross(hull.get(hull.size() - 2), hull.get(hull.size() - 1), p) >= 0) {
          hull.remove(hull.size() - 1);
        }
        hull.add(p);
      }
      final double[] xs = new double[hull.size()];
      final double[] ys = new double[hull.size()];
      for (int i = 0; i < hull.size(); i++) {
        xs[i] = hull.get(i)[0];
        ys[i] = hull.get(i)[1];
      }
      return QualityProfile.of(xs, ys);
    }

    private static double cross(double[] o, double[] a, double[] b)
    {
      return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    }
  }
}
