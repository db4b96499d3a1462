package org.getafix.druid.coordinator.plan;

import org.getafix.core.placement.plan.UnplacedSegment;
import org.getafix.core.placement.tiering.Tier;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.joda.time.DateTime;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one Getafix round published: the plan (segment → server → share of the segment's queries, which is also the
 * routing table), the inputs it came from, and the mode the rule and strategy must act in. Immutable; replaced as a
 * whole every round, so the rule, the strategy and the HTTP endpoints always see one consistent round.
 *
 * @param round       round number, strictly increasing while this process lives
 * @param version     the routing table's version: the round that produced the current plan, unchanged by rounds
 *                    whose plan is the same, so Brokers polling with If-None-Match get 304 while nothing changes
 * @param generatedAt when the round finished
 * @param mode        what the rule and strategy may do with this plan
 * @param problems    why the mode is not ACTIVE (or warnings), operator-readable
 * @param tier        the Druid tier the plan is for
 * @param shares      segment id → Historical (host:port) → share; empty before the first plan
 * @param popularity  segment id → popularity
 * @param capacities  Historical → estimated capacity
 * @param unstable    Historicals slow often enough that what they hold alone gets a second holder
 * @param nodeTiers   Historical → HOT/WARM/COLD measured from its planned load share
 * @param unplaced    segments the plan could not give all the replicas they needed
 * @param config      the dynamic config the round ran with
 */
public record PlanSnapshot(
    long round,
    long version,
    DateTime generatedAt,
    Mode mode,
    List<String> problems,
    String tier,
    Map<String, Map<String, Double>> shares,
    Map<String, Double> popularity,
    Map<String, Double> capacities,
    Set<String> unstable,
    Map<String, Tier> nodeTiers,
    List<UnplacedSegment> unplaced,
    GetafixDynamicConfig config
)
{
  public PlanSnapshot
  {
    problems = List.copyOf(problems);
    // Plan maps are built once per round by the planner and never mutated afterwards; wrapping keeps them read-only
    // without copying tens of thousands of entries.
    shares = java.util.Collections.unmodifiableMap(shares);
    popularity = java.util.Collections.unmodifiableMap(popularity);
    capacities = java.util.Collections.unmodifiableMap(capacities);
    unstable = Set.copyOf(unstable);
    nodeTiers = java.util.Collections.unmodifiableMap(nodeTiers);
    unplaced = List.copyOf(unplaced);
  }

  /** A snapshot without a plan, e.g. before the first round or while not leading. */
  public static PlanSnapshot withoutPlan(long round, DateTime at, Mode mode, List<String> problems, String tier,
                                         GetafixDynamicConfig config)
  {
    return new PlanSnapshot(round, 0, at, mode, problems, tier, Map.of(), Map.of(), Map.of(), Set.of(), Map.of(),
                            List.of(), config);
  }

  /** The servers planned to hold the segment; empty when the plan does not know it. */
  public Set<String> plannedHolders(String segmentId)
  {
    final Map<String, Double> s = shares.get(segmentId);
    return s == null ? Set.of() : s.keySet();
  }

  /** The planned share of {@code server} for the segment, 0 when not planned there. */
  public double share(String segmentId, String server)
  {
    final Map<String, Double> s = shares.get(segmentId);
    if (s == null) {
      return 0;
    }
    final Double share = s.get(server);
    return share == null ? 0 : share;
  }

  /**
   * Whether two plans route the same: the same segments on the same servers, each share within {@code tolerance}.
   * Shares wobble a little every round as popularity and capacity estimates move; a Broker gains nothing from
   * re-downloading the table for that, so such a plan keeps the previous version.
   */
  public static boolean sameRouting(
      Map<String, Map<String, Double>> a,
      Map<String, Map<String, Double>> b,
      double tolerance
  )
  {
    if (a.size() != b.size()) {
      return false;
    }
    for (Map.Entry<String, Map<String, Double>> e : a.entrySet()) {
      final Map<String, Double> other = b.get(e.getKey());
      if (other == null || !other.keySet().equals(e.getValue().keySet())) {
        return false;
      }
      for (Map.Entry<String, Double> share : e.getValue().entrySet()) {
        if (Math.abs(share.getValue() - other.get(share.getKey())) > tolerance) {
          return false;
        }
      }
    }
    return true;
  }

  public boolean isActive()
  {
    return mode == Mode.ACTIVE;
  }
}
