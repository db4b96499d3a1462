package org.getafix.demo;

import org.getafix.simulator.report.RunResult;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * druid-getafix's figures over stock Druid's, and for the latency ratios how far the sampling of queries alone moves
 * them: a bootstrap that resamples each phase's answered queries, those sent before and after the straggler apart so
 * that every resample keeps both halves of the phase. It does not cover what differs from run to run (the machine's
 * other load, the Broker's own warm-up), so two runs' ratios may differ by more: it is the least noise to expect.
 */
public final class Ratios
{
  /** Share of the resampled ratios the interval holds, centred. */
  public static final double COVERAGE = 0.9;
  private static final int RESAMPLES = 400;
  /** Fixed, so that the same results give the same interval. */
  private static final long SEED = 7L;

  private Ratios()
  {
  }

  /**
   * One ratio, druid-getafix over stock Druid.
   *
   * @param low   lower end of its bootstrap interval; NaN where there is none
   * @param high  upper end; NaN where there is none
   */
  public record Ratio(String name, double value, double low, double high)
  {
  }

  /** Throughput, p50 and p99 latency (with intervals) and replicas held while measured. */
  public static List<Ratio> of(PhaseRecord stock, PhaseRecord getafix)
  {
    final RunResult s = PhaseAnalysis.runResult(stock);
    final RunResult g = PhaseAnalysis.runResult(getafix);
    return List.of(
        new Ratio("throughput", queriesPerSecond(getafix) / queriesPerSecond(stock), Double.NaN, Double.NaN),
        latency("p50 latency", 50, g.latencyMs().p50() / s.latencyMs().p50(), stock, getafix),
        latency("p99 latency", 99, g.latencyMs().p99() / s.latencyMs().p99(), stock, getafix),
        new Ratio("replicas", g.totalReplicas() / (double) s.totalReplicas(), Double.NaN, Double.NaN)
    );
  }

  private static double queriesPerSecond(PhaseRecord p)
  {
    return p.queries() / Math.max(1e-9, p.wallSeconds());
  }

  private static Ratio latency(String name, double percentile, double value, PhaseRecord stock, PhaseRecord getafix)
  {
    final double[][] s = halves(stock);
    final double[][] g = halves(getafix);
    if (s[0].length + s[1].length == 0 || g[0].length + g[1].length == 0) {
      return new Ratio(name, value, Double.NaN, Double.NaN);
    }
    final Random random = new Random(SEED);
    final double[] ratios = new double[RESAMPLES];
    for (int i = 0; i < RESAMPLES; i++) {
      ratios[i] = percentile(resample(g, random), percentile) / percentile(resample(s, random), percentile);
    }
    Arrays.sort(ratios);
    return new Ratio(
        name,
        value,
        ratios[(int) Math.floor((1 - COVERAGE) / 2 * (RESAMPLES - 1))],
        ratios[(int) Math.ceil((1 + COVERAGE) / 2 * (RESAMPLES - 1))]
    );
  }

  /** Latencies (ms) of the answered queries sent before the straggler was throttled, and after. */
  private static double[][] halves(PhaseRecord p)
  {
    final double at = Double.isNaN(p.stragglerAt()) ? Double.POSITIVE_INFINITY : p.stragglerAt();
    return new double[][]{
        p.timeline().stream().filter(q -> q.seconds() < at).mapToDouble(TimedQuery::latencyMs).toArray(),
        p.timeline().stream().filter(q -> q.seconds() >= at).mapToDouble(TimedQuery::latencyMs).toArray()
    };
  }

  /** As many draws from each half as it has, sorted. */
  private static double[] resample(double[][] halves, Random random)
  {
    final double[] drawn = new double[halves[0].length + halves[1].length];
    int i = 0;
    for (double[] half : halves) {
      for (int n = 0; n < half.length; n++) {
        drawn[i++] = half[random.nextInt(half.length)];
      }
    }
    Arrays.sort(drawn);
    return drawn;
  }

  /** Nearest rank of a sorted, non-empty array. */
  static double percentile(double[] sorted, double percentile)
  {
    return sorted[Math.max(0, (int) Math.ceil(percentile / 100 * sorted.length) - 1)];
  }
}
