package org.getafix.druid.coordinator.load;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.druid.error.InvalidInput;
import org.apache.druid.server.coordinator.rules.LoadRule;
import org.apache.druid.server.coordinator.rules.SegmentActionHandler;
import org.apache.druid.timeline.DataSegment;
import org.getafix.core.realise.LoadBeforeDrop;
import org.getafix.core.realise.RealisePolicy;
import org.getafix.core.realise.Rollback;
import org.getafix.core.realise.ReplicaTarget;
import org.getafix.druid.coordinator.plan.GetafixPlanHolder;
import org.getafix.druid.coordinator.plan.Mode;
import org.getafix.druid.coordinator.plan.PlanSnapshot;
import org.joda.time.DateTime;
import org.joda.time.Interval;

import javax.annotation.Nullable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Load rule {@code {"type": "getafix", "tieredReplicants": {"_default_tier": 1}, "stockReplicants":
 * {"_default_tier": 2}}}: loads matching segments forever, with the replica count of the Getafix tier
 * ({@code druid.getafix.tier}) set by the current plan and never below the rule's own count there (the floor). See
 * {@link ReplicaTarget} for the count. Tiers other than the Getafix tier keep their counts as in a
 * {@code loadForever} rule.
 *
 * <p>{@code stockReplicants} are the counts of the rule this one replaces (by default the floor counts). While
 * Getafix is disabled or in dry run, the rule is exactly {@code loadForever} with them, so that neither changes
 * Druid's placement; a rollback walks every segment back to them (see {@link Rollback}).
 *
 * <p>A {@link LoadRule} subclass, so that handoff ({@code instanceof LoadRule}) treats it as a load rule.
 */
public class GetafixLoadRule extends LoadRule
{
  public static final String TYPE = "getafix";

  private final Map<String, Integer> stockReplicants;
  private final GetafixPlanHolder holder;
  private final GetafixRunHandoff handoff;

  @JsonCreator
  public GetafixLoadRule(
      @JsonProperty("tieredReplicants") Map<String, Integer> tieredReplicants,
      @JsonProperty("useDefaultTierForNull") @Nullable Boolean useDefaultTierForNull,
      @JsonProperty("stockReplicants") @Nullable Map<String, Integer> stockReplicants,
      @JacksonInject GetafixPlanHolder holder,
      @JacksonInject GetafixRunHandoff handoff
  )
  {
    super(tieredReplicants, useDefaultTierForNull);
    this.stockReplicants = stockReplicants == null ? getTieredReplicants() : validStock(stockReplicants);
    this.holder = holder;
    this.handoff = handoff;
  }

  private static Map<String, Integer> validStock(Map<String, Integer> stockReplicants)
  {
    int total = 0;
    for (Map.Entry<String, Integer> entry : stockReplicants.entrySet()) {
      if (entry.getValue() == null || entry.getValue() < 0) {
        throw InvalidInput.exception(
            "Invalid stockReplicants for tier [%s]: [%s]. Each must be a replica count >= 0.",
            entry.getKey(),
            entry.getValue()
        );
      }
      total += entry.getValue();
    }
    if (total == 0) {
      // A rollback to it, or a dry run, would drop every replica.
      throw InvalidInput.exception("stockReplicants [%s] load no replica: name at least one tier with 1 or more.",
                                   stockReplicants);
    }
    return Map.copyOf(stockReplicants);
  }

  @Override
  @JsonProperty
  public String getType()
  {
    return TYPE;
  }

  /** The replica counts of the rule this one replaces. */
  @JsonProperty
  public Map<String, Integer> getStockReplicants()
  {
    return stockReplicants;
  }

  @Override
  public boolean appliesTo(DataSegment segment, DateTime referenceTimestamp)
  {
    return true;
  }

  @Override
  public boolean appliesTo(Interval interval, DateTime referenceTimestamp)
  {
    return true;
  }

  @Override
  public void run(DataSegment segment, SegmentActionHandler handler)
  {
    final CoordinatorRun run = handoff.currentRun();
    final PlanSnapshot snapshot = run != null ? run.snapshot() : holder.snapshot();
    final ServedSegments served = handoff.servedSegments();
    final String tier = snapshot.tier();
    final Integer floor = getTieredReplicants().get(tier);
    if (snapshot.mode() == Mode.DISABLED || snapshot.config().isDryRun()) {
      handler.replicateSegment(segment, stockReplicants);
      return;
    }
    if (served == null || floor == null) {
      super.run(segment, handler);
      return;
    }

    final String segmentId = segment.getId().toString();
    final Set<String> loaded = served.holders(segment, tier);
    final ReplicaTarget target;
    final Map<String, Integer> replicas;
    if (snapshot.mode() == Mode.ROLLING_BACK && run != null) {
      // Only a run of the getafix strategy paces the rollback's loads and drops by its churn budget.
      final int stock = stockReplicants.getOrDefault(tier, 0);
      run.rollback().count(stock, loaded.size());
      final int count = Rollback.replicas(handoff.rollbackPhase(), stock, loaded.size());
      target = new ReplicaTarget(segmentId, count, false, Math.min(floor, stock), loaded, Set.of(), Set.of());
      replicas = new HashMap<>(stockReplicants);
    } else {
      final Set<String> planned = new HashSet<>(snapshot.plannedHolders(segmentId));
      planned.retainAll(served.liveServers(tier));
      // Druid's load queues count the loads in progress themselves, and cannot tell a leaving replica from one that
      // stays: the rule asks for |L ∪ P| until every planned holder serves.
      final RealisePolicy policy = new RealisePolicy(floor, LoadBeforeDrop.ALL_PLANNED_LOADED);
      // Act only when the strategy of this very run is ours: it alone knows to load onto P and drop outside P.
      target = snapshot.isActive() && run != null
               ? policy.target(segmentId, loaded, Set.of(), planned)
               : policy.frozen(segmentId, loaded, Set.of());
      replicas = new HashMap<>(getTieredReplicants());
    }
    replicas.put(tier, target.replicas());
    // The strategy of this run reads the decision while Druid assigns this segment (see GetafixRunHandoff).
    handoff.setCurrentTarget(target);
    try {
      handler.replicateSegment(segment, replicas);
    }
    finally {
      handoff.setCurrentTarget(null);
    }
  }

  @Override
  public boolean equals(Object o)
  {
    return super.equals(o) && stockReplicants.equals(((GetafixLoadRule) o).stockReplicants);
  }

  @Override
  public int hashCode()
  {
    return 31 * super.hashCode() + stockReplicants.hashCode();
  }
}
