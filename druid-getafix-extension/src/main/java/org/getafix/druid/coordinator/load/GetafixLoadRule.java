package org.getafix.druid.coordinator.load;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.druid.server.coordinator.rules.LoadRule;
import org.apache.druid.server.coordinator.rules.SegmentActionHandler;
import org.apache.druid.timeline.DataSegment;
import org.getafix.core.realise.LoadBeforeDrop;
import org.getafix.core.realise.RealisePolicy;
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
 * Load rule {@code {"type": "getafix", "tieredReplicants": {"_default_tier": 1}}}: loads matching segments forever,
 * with the replica count of the Getafix tier ({@code druid.getafix.tier}) set by the current plan and never below
 * the rule's own count there (the floor). See {@link ReplicaTarget} for the count. Tiers other than the Getafix tier
 * keep their counts as in a {@code loadForever} rule.
 *
 * <p>A {@link LoadRule} subclass, so that handoff ({@code instanceof LoadRule}) treats it as a load rule.
 */
public class GetafixLoadRule extends LoadRule
{
  public static final String TYPE = "getafix";

  private final GetafixPlanHolder holder;
  private final GetafixRunHandoff handoff;

  @JsonCreator
  public GetafixLoadRule(
      @JsonProperty("tieredReplicants") Map<String, Integer> tieredReplicants,
      @JsonProperty("useDefaultTierForNull") @Nullable Boolean useDefaultTierForNull,
      @JacksonInject GetafixPlanHolder holder,
      @JacksonInject GetafixRunHandoff handoff
  )
  {
    super(tieredReplicants, useDefaultTierForNull);
    this.holder = holder;
    this.handoff = handoff;
  }

  @Override
  @JsonProperty
  public String getType()
  {
    return TYPE;
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
    if (snapshot.mode() == Mode.DISABLED || served == null || floor == null) {
      super.run(segment, handler);
      return;
    }

    final String segmentId = segment.getId().toString();
    final Set<String> loaded = served.holders(segment, tier);
    final Set<String> planned = new HashSet<>(snapshot.plannedHolders(segmentId));
    planned.retainAll(served.liveServers(tier));
    // Druid's load queues count the loads in progress themselves, and cannot tell a leaving replica from one that
    // stays: the rule asks for |L ∪ P| until every planned holder serves.
    final RealisePolicy policy = new RealisePolicy(floor, LoadBeforeDrop.ALL_PLANNED_LOADED);
    // Act only when the strategy of this very run is ours: it alone knows to load onto P and drop outside P.
    final ReplicaTarget target = snapshot.isActive() && run != null
                                 ? policy.target(segmentId, loaded, Set.of(), planned)
                                 : policy.frozen(segmentId, loaded, Set.of());

    final Map<String, Integer> replicas = new HashMap<>(getTieredReplicants());
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
}
