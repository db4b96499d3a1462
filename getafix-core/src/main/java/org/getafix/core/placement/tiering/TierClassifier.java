package org.getafix.core.placement.tiering;

import org.getafix.core.placement.plan.Validation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Groups Historicals into HOT / WARM / COLD by the load share they were measured to carry (thesis Fig 4.3, where the
 * tiers come from the reported CPU time).
 *
 * <p>{@link #classify} uses exact one-dimensional k-means with three groups (Jenks natural breaks: the split of the
 * sorted values into contiguous groups with the least within-group sum of squares), found by dynamic programming.
 * Unlike Lloyd's k-means it has no random start, so it is deterministic, and unlike fixed thresholds it needs no
 * tuning. Nodes with equal load always share a tier. With only two distinct values the groups are HOT and COLD;
 * with one (a perfectly even cluster, or a single node) every node is WARM: there is no tiering to see.
 */
public final class TierClassifier
{
  private static final int TIERS = 3;

  private TierClassifier()
  {
  }

  /**
   * @param loadShare node id → measured load (any non-negative unit: share of the cluster load, CPU time, ...)
   * @return node id → tier, ordered by node id; empty for empty input
   * @throws IllegalArgumentException naming an empty node id or a NaN, infinite or negative load
   */
  public static Map<String, Tier> classify(Map<String, Double> loadShare)
  {
    final TreeMap<String, Double> byId = validated(loadShare);
    final Map<String, Tier> result = new TreeMap<>();
    if (byId.isEmpty()) {
      return result;
    }
    final double[] distinct = byId.values().stream().mapToDouble(Double::doubleValue).sorted().distinct().toArray();
    final int[] weight = new int[distinct.length];
    for (double v : byId.values()) {
      weight[java.util.Arrays.binarySearch(distinct, v)]++;
    }
    final int groups = Math.min(TIERS, distinct.length);
    final int[] groupOfDistinct = naturalBreaks(distinct, weight, groups);
    for (Map.Entry<String, Double> e : byId.entrySet()) {
      final int group = groupOfDistinct[java.util.Arrays.binarySearch(distinct, e.getValue())];
      result.put(e.getKey(), tierOf(group, groups));
    }
    return Collections.unmodifiableMap(result);
  }

  /**
   * Ranks nodes by load (ties by node id) and makes the top {@code hotCount} HOT, the next {@code warmCount} WARM and
   * the rest COLD: the classification to use when the tier sizes are known, as in the thesis' Table 4.1 clusters.
   */
  public static Map<String, Tier> classifyByRank(Map<String, Double> loadShare, int hotCount, int warmCount)
  {
    if (hotCount < 0 || warmCount < 0) {
      throw new IllegalArgumentException(
          "hotCount and warmCount must be >= 0, got [" + hotCount + "] and [" + warmCount + "]"
      );
    }
    final TreeMap<String, Double> byId = validated(loadShare);
    final List<Map.Entry<String, Double>> ranked = new ArrayList<>(byId.entrySet());
    // Stable sort of an id-ordered list: equal loads stay in id order.
    ranked.sort((a, b) -> Double.compare(b.getValue(), a.getValue()));
    final Map<String, Tier> result = new TreeMap<>();
    for (int i = 0; i < ranked.size(); i++) {
      final Tier tier = i < hotCount ? Tier.HOT : i < hotCount + warmCount ? Tier.WARM : Tier.COLD;
      result.put(ranked.get(i).getKey(), tier);
    }
    return Collections.unmodifiableMap(result);
  }

  private static Tier tierOf(int group, int groups)
  {
    if (groups == 1) {
      return Tier.WARM;
    }
    if (group == groups - 1) {
      return Tier.HOT;
    }
    return group == 0 ? Tier.COLD : Tier.WARM;
  }

  /**
   * Optimal split of the sorted distinct values (with multiplicities) into {@code groups} contiguous groups by least
   * within-group sum of squares. O(groups · d²) for d distinct values: a few million steps for a thousand nodes.
   *
   * @return for each distinct value, its group, 0 = lowest
   */
  private static int[] naturalBreaks(double[] values, int[] weight, int groups)
  {
    final int d = values.length;
    // Prefix sums of weight, weighted value and weighted square, to price any contiguous group in O(1).
    final double[] w = new double[d + 1];
    final double[] s = new double[d + 1];
    final double[] q = new double[d + 1];
    for (int i = 0; i < d; i++) {
      w[i + 1] = w[i] + weight[i];
      s[i + 1] = s[i] + weight[i] * values[i];
      q[i + 1] = q[i] + weight[i] * values[i] * values[i];
    }
    // cost[g][j]: least cost of the first j distinct values in g+1 groups; start[g][j]: where the last group starts.
    final double[][] cost = new double[groups][d + 1];
    final int[][] start = new int[groups][d + 1];
    for (int j = 1; j <= d; j++) {
      cost[0][j] = sse(w, s, q, 0, j);
    }
    for (int g = 1; g < groups; g++) {
      for (int j = g + 1; j <= d; j++) {
        double best = Double.POSITIVE_INFINITY;
        int bestStart = -1;
        for (int i = g; i < j; i++) {
          final double c = cost[g - 1][i] + sse(w, s, q, i, j);
          // Strict '<' keeps the first (lowest) split point on ties: deterministic.
          if (c < best) {
            best = c;
            bestStart = i;
          }
        }
        cost[g][j] = best;
        start[g][j] = bestStart;
      }
    }
    final int[] group = new int[d];
    int end = d;
    for (int g = groups - 1; g >= 0; g--) {
      final int from = g == 0 ? 0 : start[g][end];
      for (int i = from; i < end; i++) {
        group[i] = g;
      }
      end = from;
    }
    return group;
  }

  private static double sse(double[] w, double[] s, double[] q, int from, int to)
  {
    final double n = w[to] - w[from];
    final double sum = s[to] - s[from];
    return Math.max(0, (q[to] - q[from]) - sum * sum / n);
  }

  private static TreeMap<String, Double> validated(Map<String, Double> loadShare)
  {
    if (loadShare == null) {
      throw new IllegalArgumentException("loadShare must not be null");
    }
    final TreeMap<String, Double> byId = new TreeMap<>();
    for (Map.Entry<String, Double> e : loadShare.entrySet()) {
      Validation.requireId("nodeId", e.getKey());
      if (e.getValue() == null) {
        throw new IllegalArgumentException("load of node " + e.getKey() + " must not be null");
      }
      Validation.requireNonNegativeFinite("load of node " + e.getKey(), e.getValue());
      byId.put(e.getKey(), e.getValue());
    }
    return byId;
  }
}
