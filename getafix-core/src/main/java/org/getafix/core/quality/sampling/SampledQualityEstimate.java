package org.getafix.core.quality.sampling;

/**
 * The mean answer quality of sampled queries, corrected for the samples that got no mature run. A sampled query is
 * skipped when the mature runs in flight are at their limit, which happens when late sub-queries pile up: exactly
 * when answers are worst. Averaging only the measured runs then reads high. Here each measured run stands for the
 * sampled queries of its time bucket: it weighs (sampled in the bucket) / (measured-to-be in the bucket), the inverse
 * of the chance that a sample of that moment got a run (inverse probability weighting).
 *
 * <p>A skipped sample that is measured later after all (replayed, {@link ReplayQueue}) {@link #onStartedLater starts
 * late}: it counts as started in the bucket of its sampling, where its run is measured too, since it measures the
 * online answer of that moment. Its own run then stands for it, and every run of the bucket weighs less, as fewer
 * samples there went unmeasured; the replays that never start (dropped) are still stood for by the bucket's runs.
 *
 * <p>The confidence is a normal approximation over the effective sample size of the weights, (Σw)² / Σw². Buckets
 * older than {@code buckets × bucketMillis} are forgotten; a run measured after its bucket is gone weighs 1.
 * Thread-safe; garbage (NaN or out-of-range quality, negative times) is ignored.
 */
public final class SampledQualityEstimate
{
  private static final double Z_95 = 1.96;

  private final long bucketMillis;
  private final Bucket[] buckets;
  /** The sums of the runs whose buckets were forgotten, each weighed with its bucket's final weight. */
  private final Sums retired = new Sums();

  /**
   * @param bucketMillis width of a time bucket, &gt; 0: samples of one bucket are taken as alike
   * @param buckets      buckets remembered, ≥ 1
   */
  public SampledQualityEstimate(long bucketMillis, int buckets)
  {
    if (bucketMillis <= 0 || buckets < 1) {
      throw new IllegalArgumentException(
          "bucketMillis must be > 0 and buckets >= 1, got [" + bucketMillis + ", " + buckets + "]"
      );
    }
    this.bucketMillis = bucketMillis;
    this.buckets = new Bucket[buckets];
    for (int i = 0; i < buckets; i++) {
      this.buckets[i] = new Bucket();
    }
  }

  /** The estimate's figures: weighted mean quality, the half-width of its 95% interval, and the runs behind it. */
  public record Estimate(double meanQuality, double confidence95, long measuredRuns, double effectiveRuns)
  {
  }

  /** Weighted sums of measured qualities. */
  private static final class Sums
  {
    double weights;
    double squaredWeights;
    double weighted;
    double weightedSquares;
    long runs;

    void add(double weight, long count, double qualities, double squares)
    {
      weights += weight * count;
      squaredWeights += weight * weight * count;
      weighted += weight * qualities;
      weightedSquares += weight * squares;
      runs += count;
    }

    void add(Sums other)
    {
      weights += other.weights;
      squaredWeights += other.squaredWeights;
      weighted += other.weighted;
      weightedSquares += other.weightedSquares;
      runs += other.runs;
    }
  }

  /** One time bucket: its samples, how many got a run, and the qualities measured so far. */
  private static final class Bucket
  {
    long id = -1;
    long sampled;
    long started;
    long measured;
    double qualities;
    double squares;

    /** Sampled queries per run that started: what each of its measured runs stands for. */
    double weight()
    {
      return started == 0 ? 1 : sampled / (double) started;
    }
  }

  /** A query at {@code nowMillis} was sampled; {@code started}: it got a mature run (false: skipped at the limit). */
  public synchronized void onSampled(long nowMillis, boolean started)
  {
    if (nowMillis < 0) {
      return;
    }
    final Bucket bucket = bucket(nowMillis, true);
    if (bucket == null) {
      return;
    }
    bucket.sampled++;
    if (started) {
      bucket.started++;
    }
  }

  /**
   * A query sampled at {@code sampledAtMillis} that got no run then ({@code onSampled(..., false)}) got one later. A
   * bucket already forgotten is left alone: the run will weigh 1 when it is measured.
   */
  public synchronized void onStartedLater(long sampledAtMillis)
  {
    if (sampledAtMillis < 0) {
      return;
    }
    final Bucket bucket = bucket(sampledAtMillis, false);
    if (bucket != null && bucket.started < bucket.sampled) {
      bucket.started++;
    }
  }

  /**
   * The mature run of a query sampled at {@code sampledAtMillis} measured {@code quality}, in [0, 1]. A run whose
   * bucket is already forgotten weighs 1.
   */
  public synchronized void onMeasured(long sampledAtMillis, double quality)
  {
    if (sampledAtMillis < 0 || !(quality >= 0 && quality <= 1)) {
      return;
    }
    final Bucket bucket = bucket(sampledAtMillis, false);
    if (bucket == null) {
      retired.add(1, 1, quality, quality * quality);
      return;
    }
    bucket.measured++;
    bucket.qualities += quality;
    bucket.squares += quality * quality;
  }

  public synchronized Estimate estimate()
  {
    final Sums all = new Sums();
    all.add(retired);
    for (Bucket bucket : buckets) {
      all.add(bucket.weight(), bucket.measured, bucket.qualities, bucket.squares);
    }
    if (all.runs == 0) {
      return new Estimate(Double.NaN, Double.NaN, 0, 0);
    }
    final double mean = all.weighted / all.weights;
    final double variance = Math.max(0, all.weightedSquares / all.weights - mean * mean);
    final double effective = all.weights * all.weights / all.squaredWeights;
    final double halfWidth = effective > 1 ? Z_95 * Math.sqrt(variance / (effective - 1)) : Double.NaN;
    return new Estimate(mean, halfWidth, all.runs, effective);
  }

  /**
   * The bucket of {@code millis}, or null when it is no longer (or not yet) remembered. With {@code claim}, a slot
   * holding an older bucket retires that bucket's runs with their final weight and starts {@code millis}'s.
   */
  private Bucket bucket(long millis, boolean claim)
  {
    final long id = millis / bucketMillis;
    final Bucket bucket = buckets[(int) (id % buckets.length)];
    if (bucket.id == id) {
      return bucket;
    }
    if (!claim || bucket.id > id) {
      return null;
    }
    retired.add(bucket.weight(), bucket.measured, bucket.qualities, bucket.squares);
    bucket.id = id;
    bucket.sampled = 0;
    bucket.started = 0;
    bucket.measured = 0;
    bucket.qualities = 0;
    bucket.squares = 0;
    return bucket;
  }
}
