package org.getafix.core.quality.split;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
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
 * builds a fresh immutable profile. What was learned outlives the learner as a {@link Snapshot}, which
 * {@link #restore} adds back.
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

  /** What was learned so far, per query class: a consistent copy of each class's bins, taken under its lock. */
  public Snapshot snapshot()
  {
    final Map<String, BinTotals> totals = new TreeMap<>();
    classes.forEach((queryClass, classBins) -> totals.put(queryClass, classBins.totals()));
    return new Snapshot(bins, totals);
  }

  /**
   * Adds the samples of {@code snapshot} to those recorded so far (none, when a Broker restores its profiles as it
   * starts): a sample recorded meanwhile is kept, not overwritten.
   *
   * @throws IllegalArgumentException if {@code snapshot} is null or was taken with another number of bins, whose
   *                                  bins do not line up with these
   */
  public void restore(Snapshot snapshot)
  {
    if (snapshot == null) {
      throw new IllegalArgumentException("no snapshot to restore");
    }
    if (snapshot.bins() != bins) {
      throw new IllegalArgumentException(
          "a snapshot of " + snapshot.bins() + " bins cannot restore a learner of " + bins + " bins"
      );
    }
    snapshot.classes().forEach(
        (queryClass, totals) -> classes.computeIfAbsent(queryClass, c -> new Bins(bins)).add(totals)
    );
  }

  /**
   * A learner's state: the number of fraction bins and, per query class, its {@link BinTotals}. Immutable; its
   * components are plain lists and maps, so that it is easily written out (as JSON) and read back.
   *
   * @throws IllegalArgumentException when {@code bins} is below 1, or a class is null or does not have
   *                                  {@code bins} bins
   */
  public record Snapshot(int bins, Map<String, BinTotals> classes)
  {
    public Snapshot
    {
      if (bins < 1) {
        throw new IllegalArgumentException("a snapshot needs >= 1 bins, got [" + bins + "]");
      }
      if (classes == null) {
        throw new IllegalArgumentException("a snapshot needs its query classes");
      }
      for (Map.Entry<String, BinTotals> entry : classes.entrySet()) {
        if (entry.getKey() == null || entry.getValue() == null) {
          throw new IllegalArgumentException("a snapshot's query classes need a name and bins each");
        }
        if (entry.getValue().counts().size() != bins) {
          throw new IllegalArgumentException("query class [" + entry.getKey() + "] has "
                                             + entry.getValue().counts().size() + " bins, the snapshot " + bins);
        }
      }
      classes = Collections.unmodifiableMap(new TreeMap<>(classes));
    }
  }

  /**
   * One query class's samples, per fraction bin: how many, and the sums of their completed fractions and of their
   * qualities. Immutable.
   *
   * @throws IllegalArgumentException unless the three lists are as long as each other, and each bin's count is
   *                                  &ge; 0 and its sums are in [0, count] (each sample's fraction and quality are in
   *                                  [0, 1])
   */
  public record BinTotals(List<Long> counts, List<Double> fractionSums, List<Double> qualitySums)
  {
    public BinTotals
    {
      if (hasNull(counts) || hasNull(fractionSums) || hasNull(qualitySums)) {
        throw new IllegalArgumentException("bin totals need counts, fractionSums and qualitySums, without nulls");
      }
      if (counts.isEmpty() || fractionSums.size() != counts.size() || qualitySums.size() != counts.size()) {
        throw new IllegalArgumentException("bin totals need as many fractionSums and qualitySums as counts (>= 1), got "
                                           + counts.size() + ", " + fractionSums.size() + " and "
                                           + qualitySums.size());
      }
      for (int bin = 0; bin < counts.size(); bin++) {
        final long count = counts.get(bin);
        if (count < 0) {
          throw new IllegalArgumentException("bin " + bin + " has a negative count [" + count + "]");
        }
        checkSum("fractionSums", bin, fractionSums.get(bin), count);
        checkSum("qualitySums", bin, qualitySums.get(bin), count);
      }
      counts = List.copyOf(counts);
      fractionSums = List.copyOf(fractionSums);
      qualitySums = List.copyOf(qualitySums);
    }

    private static boolean hasNull(List<?> values)
    {
      // Not contains(null): an immutable list throws on it.
      return values == null || values.stream().anyMatch(Objects::isNull);
    }

    private static void checkSum(String name, int bin, double sum, long count)
    {
      if (!(sum >= 0 && sum <= count)) {
        throw new IllegalArgumentException(
            name + " of bin " + bin + " must be in [0, " + count + "] (its count), got [" + sum + "]"
        );
      }
    }
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

    synchronized void add(BinTotals totals)
    {
      for (int bin = 0; bin < counts.length; bin++) {
        counts[bin] += totals.counts().get(bin);
        fractionSums[bin] += totals.fractionSums().get(bin);
        qualitySums[bin] += totals.qualitySums().get(bin);
      }
    }

    synchronized BinTotals totals()
    {
      final List<Long> countList = new ArrayList<>(counts.length);
      final List<Double> fractionList = new ArrayList<>(counts.length);
      final List<Double> qualityList = new ArrayList<>(counts.length);
      for (int bin = 0; bin < counts.length; bin++) {
        countList.add(counts[bin]);
        fractionList.add(fractionSums[bin]);
        qualityList.add(qualitySums[bin]);
      }
      return new BinTotals(countList, fractionList, qualityList);
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
