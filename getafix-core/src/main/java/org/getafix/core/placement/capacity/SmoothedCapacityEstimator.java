package org.getafix.core.placement.capacity;

import org.getafix.core.contract.PlacementKnobs;
import org.getafix.core.placement.plan.Validation;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The common part of the estimators: validation of reports, a robust estimate per node, and the record of rejected
 * reports. Subclasses only say what one round's sample of capacity is.
 *
 * <p>A node's estimate is the median of its last {@value #WINDOW} samples, optionally smoothed further by an
 * exponentially weighted moving average ({@code smoothing} below 1). The median is what keeps one report from
 * moving the plan: a single round of absurd but plausible counters (a long query's CPU landing in one round, a GC
 * pause, a clock hiccup) is outvoted by the rounds around it, either way, while a real change (a quota cut, a noisy
 * neighbour that stays) shows fully after two rounds. A moving average cannot do both: at weight ½ a node cut to a
 * twentieth of its CPU needed six rounds, more with its late reports, to look like the straggler it was, and one
 * absurd round still moved it by half.
 *
 * <p>Up, a sample also counts for at most {@value #MAX_SAMPLE_STEP} × the larger of the node's estimate and the mean
 * estimate of all nodes, so that a run of absurd rounds lifts an estimate at most that much a round, not to the
 * absurd value. A real change, say a quota raised eightfold, still shows within a few rounds. The tier mean in the
 * bound lets a node that was idle (an estimate near 0, as {@link CpuTimeCapacityEstimator} rates it) climb back to
 * the tier's level in two rounds.
 *
 * <p><b>Stability.</b> The median hides a node that is slow for a second or two every few rounds (a noisy neighbour
 * with a period, a recurring GC pause or flush): its estimate stays at its usual speed, yet every query that reaches
 * it during a slow spell waits. Such a node becomes <em>unstable</em> ({@link #unstable()}) when at least
 * {@value #UNSTABLE_SLOW_ROUNDS} of its last {@value #STABILITY_WINDOW} rounds were slow, and stays so until none of
 * them is. A round is slow when its sample is below {@value #SLOW_SHARE} × the median of those samples, or when the
 * node was stalled ({@link NodeRoundStats#stalledSeconds}) for at least {@value #STALLED_SHARE} of the round more than
 * in its median round. The stalls are the sharper signal: a sample only drops when the node stayed busy through the
 * spell, while queries that reach it then wait either way; and against the node's own median, a node throttled by
 * its quota whenever it is busy is slow all the time, which its estimate already says, not now and then. One slow
 * round in the window is a measuring accident (a GC, a late report); two that recur within a minute are a pattern a
 * single holder cannot mask. The way back needs a clean window, so that a node whose spells come every half minute is
 * not backed up and dropped in turn (each backup is a segment load). A node cut for good counts as unstable only until
 * its slow samples are the window's majority, and by then it is a straggler.
 */
abstract class SmoothedCapacityEstimator implements CapacityEstimator
{
  /** See the class comment. The simulator's scenarios plan the same with and without this bound. */
  static final double MAX_SAMPLE_STEP = 4.0;
  /** Rounds the median is taken over: the fewest in which one outlier never decides. */
  static final int WINDOW = 3;
  /** Rounds a node's stability is judged over: about a minute of rounds of a few seconds. */
  static final int STABILITY_WINDOW = 20;
  /**
   * A sample below this share of the stability window's median is a slow round. A stall of half a round on a node
   * that is busy throughout halves that round's sample at most, and a stall across two rounds takes a quarter off
   * each, so the bar sits above a half.
   */
  static final double SLOW_SHARE = 0.7;
  /**
   * A round in which the node was stalled for this share of it more than in its median round is slow: 450 ms of a
   * 3-second round, far beyond a young-generation GC pause or the scheduler's jitter.
   */
  static final double STALLED_SHARE = 0.15;
  /**
   * Rounds a node must have reported before it can become unstable: over fewer, the median that decides what is slow
   * is a node's first rounds (a fresh cluster's ingestion and loading), and live a quarter-core Historical came out
   * unstable from them for half a minute.
   */
  static final int MIN_ROUNDS_TO_JUDGE = STABILITY_WINDOW / 2;
  /** Slow rounds within the stability window that make a node unstable. */
  static final int UNSTABLE_SLOW_ROUNDS = 2;

  private final double smoothing;
  // TreeMaps: capacities() and rejections() iterate by node id, whatever order the nodes reported in.
  private final Map<String, Double> estimates = new TreeMap<>();
  // Oldest first.
  private final Map<String, double[]> recentSamples = new HashMap<>();
  // Each of those rounds' stalled share, in the same order.
  private final Map<String, double[]> recentStalls = new HashMap<>();
  private final Map<String, String> rejections = new TreeMap<>();
  private final Set<String> unstable = new TreeSet<>();

  /** @param smoothing weight of the newest median in the moving average, in (0, 1]; 1 means the median alone */
  SmoothedCapacityEstimator(double smoothing)
  {
    PlacementKnobs.CAPACITY_SMOOTHING.checkAs("smoothing", smoothing);
    this.smoothing = smoothing;
  }

  /**
   * This round's capacity sample from usable stats, or NaN when the round says nothing about capacity (the estimate
   * is then kept, and this is not a rejection).
   */
  abstract double sample(NodeRoundStats stats);

  @Override
  public final void observe(String nodeId, NodeRoundStats stats)
  {
    Validation.requireId("nodeId", nodeId);
    if (stats == null) {
      rejections.put(nodeId, "no stats reported; keeping the last estimate");
      return;
    }
    final String problem = stats.problem();
    if (problem != null) {
      rejections.put(nodeId, problem + "; keeping the last estimate");
      return;
    }
    rejections.remove(nodeId);
    final double sample = sample(stats);
    if (Double.isNaN(sample)) {
      return;
    }
    final Double previous = estimates.get(nodeId);
    final double median = medianOfRecent(nodeId, previous == null ? sample : Math.min(sample, ceilingOf(previous)));
    estimates.put(nodeId, previous == null ? median : smoothing * median + (1 - smoothing) * previous);
    recentStalls.put(nodeId, appended(recentStalls.get(nodeId), stats.stalledSeconds() / stats.wallTimeSeconds()));
    final int slow = slowRoundsOf(recentSamples.get(nodeId), recentStalls.get(nodeId));
    if (slow >= UNSTABLE_SLOW_ROUNDS && recentSamples.get(nodeId).length >= MIN_ROUNDS_TO_JUDGE) {
      unstable.add(nodeId);
    } else if (slow == 0) {
      unstable.remove(nodeId);
    }
  }

  /**
   * Adds {@code sample} to the node's last {@value #STABILITY_WINDOW} samples and returns the median of the last
   * {@value #WINDOW}.
   */
  private double medianOfRecent(String nodeId, double sample)
  {
    final double[] recent = appended(recentSamples.get(nodeId), sample);
    recentSamples.put(nodeId, recent);
    return median(Arrays.copyOfRange(recent, Math.max(0, recent.length - WINDOW), recent.length));
  }

  /** The last {@value #STABILITY_WINDOW} of {@code before} (null: none) and {@code value}. */
  private static double[] appended(double[] before, double value)
  {
    final double[] from = before == null ? new double[0] : before;
    final int kept = Math.min(from.length, STABILITY_WINDOW - 1);
    final double[] recent = Arrays.copyOfRange(from, from.length - kept, from.length + 1);
    recent[kept] = value;
    return recent;
  }

  private static double median(double[] values)
  {
    final double[] sorted = values.clone();
    Arrays.sort(sorted);
    final int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  private static int slowRoundsOf(double[] samples, double[] stalls)
  {
    final double bar = SLOW_SHARE * median(samples);
    final double stallBar = median(stalls) + STALLED_SHARE;
    int count = 0;
    for (int i = 0; i < samples.length; i++) {
      if (samples[i] < bar || stalls[i] >= stallBar) {
        count++;
      }
    }
    return count;
  }

  @Override
  public final Map<String, Integer> slowRounds()
  {
    final Map<String, Integer> slow = new TreeMap<>();
    recentSamples.forEach((node, samples) -> slow.put(node, slowRoundsOf(samples, recentStalls.get(node))));
    return Collections.unmodifiableMap(slow);
  }

  @Override
  public final Set<String> unstable()
  {
    return Collections.unmodifiableSet(new TreeSet<>(unstable));
  }

  /** The largest sample one round may count for a node whose estimate is {@code previous}; see the class comment. */
  private double ceilingOf(double previous)
  {
    double mean = 0;
    for (double e : estimates.values()) {
      mean += e / estimates.size();
    }
    final double reference = Math.max(previous, mean);
    return reference > 0 ? MAX_SAMPLE_STEP * reference : Double.POSITIVE_INFINITY;
  }

  @Override
  public final Map<String, Double> capacities()
  {
    return Collections.unmodifiableMap(new TreeMap<>(estimates));
  }

  @Override
  public final void forget(String nodeId)
  {
    estimates.remove(nodeId);
    recentSamples.remove(nodeId);
    recentStalls.remove(nodeId);
    rejections.remove(nodeId);
    unstable.remove(nodeId);
  }

  @Override
  public final Map<String, String> rejections()
  {
    return Collections.unmodifiableMap(new TreeMap<>(rejections));
  }
}
