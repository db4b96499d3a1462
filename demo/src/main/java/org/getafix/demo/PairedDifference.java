package org.getafix.demo;

import java.util.Arrays;
import java.util.List;

/**
 * Two setups' latencies for the same queries, paired: each query went to both, one right after the other. What they
 * differ by is the median of the per-pair differences (a − b), which the load the two share moves far less than it
 * moves either setup's own latencies; its interval is the distribution-free one of a median, between two order
 * statistics of the differences (from the binomial distribution of how many fall below the median), so that it
 * assumes nothing of their shape, only that the pairs are independent. Each setup's own median and p99 go with it, and
 * the median difference apart for the pairs each setup went first in: the second query of a pair may find caches the
 * first warmed. Immutable.
 *
 * @param pairs        how many pairs
 * @param median       the median of the differences a − b, in ms
 * @param low          the lower end of its interval, in ms; NaN with too few pairs for one
 * @param high         the upper end, in ms; NaN with too few pairs
 * @param coverage     the probability that the interval holds the differences' median: at least {@link #CONFIDENCE}
 *                     (the order statistics make it a little more); NaN with too few pairs
 * @param medianA      a's median latency, in ms
 * @param medianB      b's
 * @param p99A         a's p99 latency (nearest rank), in ms
 * @param p99B         b's
 * @param medianAFirst the median of the differences of the pairs in which a went first, in ms; NaN if none did
 * @param medianBFirst the same of the pairs in which b went first
 */
record PairedDifference(
    int pairs,
    double median,
    double low,
    double high,
    double coverage,
    double medianA,
    double medianB,
    double p99A,
    double p99B,
    double medianAFirst,
    double medianBFirst
)
{
  /** The least probability that the interval holds the median. */
  static final double CONFIDENCE = 0.95;

  /** One query's latencies at both setups, and which it went to first. */
  record Pair(double aMillis, double bMillis, boolean aFirst)
  {
    double difference()
    {
      return aMillis - bMillis;
    }
  }

  /** @throws IllegalArgumentException for no pairs */
  static PairedDifference of(List<Pair> pairs)
  {
    if (pairs.isEmpty()) {
      throw new IllegalArgumentException("no pairs to compare");
    }
    final double[] differences = sorted(pairs.stream().mapToDouble(Pair::difference).toArray());
    final double[] a = sorted(pairs.stream().mapToDouble(Pair::aMillis).toArray());
    final double[] b = sorted(pairs.stream().mapToDouble(Pair::bMillis).toArray());
    final int n = differences.length;
    final int rank = intervalRank(n);
    return new PairedDifference(
        n,
        median(differences),
        rank == 0 ? Double.NaN : differences[rank - 1],
        rank == 0 ? Double.NaN : differences[n - rank],
        rank == 0 ? Double.NaN : coverage(n, rank),
        median(a),
        median(b),
        Ratios.percentile(a, 99),
        Ratios.percentile(b, 99),
        median(sorted(pairs.stream().filter(Pair::aFirst).mapToDouble(Pair::difference).toArray())),
        median(sorted(pairs.stream().filter(p -> !p.aFirst()).mapToDouble(Pair::difference).toArray()))
    );
  }

  /**
   * The rank k (from 1) whose order statistics, the k-th smallest and the k-th largest of {@code n} differences,
   * bound the narrowest interval that holds their median with probability at least {@link #CONFIDENCE}: the largest k
   * with 2·P(B ≤ k − 1) ≤ 1 − {@link #CONFIDENCE}, B ~ Binomial(n, ½). 0 where even the smallest and largest do not
   * (n ≤ 5).
   */
  static int intervalRank(int n)
  {
    final double tails = 1 - CONFIDENCE;
    int rank = 0;
    double below = 0;
    // In logarithms: ½ⁿ underflows a double from n = 1075 on.
    double logChoose = 0;
    final double logHalfToN = n * Math.log(0.5);
    while (rank < n) {
      final double next = below + Math.exp(logChoose + logHalfToN);
      if (2 * next > tails) {
        break;
      }
      below = next;
      rank++;
      logChoose += Math.log(n - rank + 1) - Math.log(rank);
    }
    return rank;
  }

  /** The probability that the k-th smallest and k-th largest of {@code n} differences hold their median. */
  static double coverage(int n, int rank)
  {
    double below = 0;
    double logChoose = 0;
    final double logHalfToN = n * Math.log(0.5);
    for (int j = 0; j < rank; j++) {
      below += Math.exp(logChoose + logHalfToN);
      logChoose += Math.log(n - j) - Math.log(j + 1);
    }
    return 1 - 2 * below;
  }

  private static double[] sorted(double[] values)
  {
    Arrays.sort(values);
    return values;
  }

  /** The median of sorted {@code values}; NaN if there are none. */
  private static double median(double[] sorted)
  {
    final int n = sorted.length;
    if (n == 0) {
      return Double.NaN;
    }
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
