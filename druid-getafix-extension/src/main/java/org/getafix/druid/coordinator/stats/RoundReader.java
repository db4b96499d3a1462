package org.getafix.druid.coordinator.stats;

import com.google.inject.Inject;
import org.apache.druid.client.DruidServer;
import org.apache.druid.client.ServerInventoryView;
import org.apache.druid.discovery.DiscoveryDruidNode;
import org.apache.druid.discovery.DruidNodeDiscoveryProvider;
import org.apache.druid.discovery.NodeRole;
import org.apache.druid.java.util.common.DateTimes;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.metadata.MetadataRuleManager;
import org.apache.druid.server.DruidNode;
import org.apache.druid.server.coordinator.rules.Rule;
import org.apache.druid.timeline.DataSegment;
import org.getafix.core.placement.capacity.NodeSample;
import org.getafix.core.placement.popularity.SegmentSample;
import org.getafix.druid.coordinator.config.GetafixConfig;
import org.getafix.druid.coordinator.load.GetafixLoadRule;
import org.getafix.druid.coordinator.load.InventoryServedSegments;
import org.getafix.druid.coordinator.load.ServedSegments;
import org.getafix.druid.coordinator.plan.RoundInput;
import org.joda.time.DateTime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads one round from Druid for the Getafix tier: its live Historicals (in the inventory and announced), their
 * stats (pulled, checked and turned into deltas), the segments whose first matching rule is a getafix rule and who
 * serves them, and each node's memory minus the segments Getafix does not govern. Keeps what the reading needs
 * across rounds (each node's last good report, its failed pulls); used by the round thread only.
 */
public class RoundReader
{
  private static final Logger log = new Logger(RoundReader.class);
  /**
   * Consecutive rounds a Historical must fail to answer before the plan stops placing replicas on it. Druid itself
   * notices a dead Historical only when its ZooKeeper registration times out (30 s by default); by then its segments
   * already have planned copies elsewhere. Two rounds, so that one lost request does not move data.
   */
  private static final int UNREACHABLE_ROUNDS = 2;

  private final GetafixConfig config;
  private final ServerInventoryView inventory;
  private final DruidNodeDiscoveryProvider discoveryProvider;
  private final MetadataRuleManager ruleManager;
  private final StatsSource statsSource;
  private final NodeStatsTracker statsTracker = new NodeStatsTracker();
  private final Map<String, Integer> failedPulls = new HashMap<>();

  @Inject
  public RoundReader(
      GetafixConfig config,
      ServerInventoryView inventory,
      DruidNodeDiscoveryProvider discoveryProvider,
      MetadataRuleManager ruleManager,
      StatsSource statsSource
  )
  {
    this.config = config;
    this.inventory = inventory;
    this.discoveryProvider = discoveryProvider;
    this.ruleManager = ruleManager;
    this.statsSource = statsSource;
  }

  /** Who serves what, over the same inventory the rounds read, for the getafix rule. */
  public ServedSegments servedSegments()
  {
    return new InventoryServedSegments(inventory);
  }

  /**
   * @param withPredecessors whether to name each segment's predecessor, for popularity inheritance
   */
  public RoundInput read(boolean withPredecessors)
  {
    final Map<String, String> baseUrls = new HashMap<>();
    final Map<String, DruidServer> servers = liveHistoricals(baseUrls);
    failedPulls.keySet().retainAll(servers.keySet());
    final Map<String, String> statsMissing = new TreeMap<>();
    final Map<String, NodeStatsTracker.NodeDelta> deltas = pullStats(baseUrls, statsMissing);
    final RoundStats stats = RoundStats.of(deltas);

    // The segments Getafix governs: served in the tier, and whose first matching rule is a getafix rule.
    final Map<String, DataSegment> segments = new HashMap<>();
    final Map<String, Set<String>> holders = new HashMap<>();
    final Map<String, Long> otherBytes = new HashMap<>();
    final DateTime now = DateTimes.nowUtc();
    final Map<String, Boolean> governedCache = new HashMap<>();
    servers.forEach((name, server) -> {
      long other = 0;
      for (DataSegment segment : server.iterateAllSegments()) {
        final String id = segment.getId().toString();
        if (governedCache.computeIfAbsent(id, k -> isGoverned(segment, now))) {
          segments.putIfAbsent(id, segment);
          holders.computeIfAbsent(id, k -> new HashSet<>()).add(name);
        } else {
          other += segment.getSize();
        }
      }
      otherBytes.put(name, other);
    });

    final Map<String, String> predecessors = withPredecessors ? SegmentPredecessors.of(segments.values()) : Map.of();
    final List<SegmentSample> segmentSamples = new ArrayList<>(segments.size());
    segments.forEach((id, segment) -> segmentSamples.add(new SegmentSample(
        id, segment.getSize(), stats.accessTime().getOrDefault(id, 0.0), 0, predecessors.get(id)
    )));
    final List<NodeSample> nodeSamples = new ArrayList<>(servers.size());
    servers.forEach((name, server) -> nodeSamples.add(new NodeSample(
        name,
        Math.max(0, server.getMaxSize() - otherBytes.getOrDefault(name, 0L)),
        stats.nodeStats().get(name),
        statsMissing.containsKey(name),
        failedPulls.getOrDefault(name, 0) < UNREACHABLE_ROUNDS
    )));
    return new RoundInput(holders, segmentSamples, nodeSamples, statsMissing, !deltas.isEmpty());
  }

  /** Forgets Historicals that left the tier: if one comes back, its first report is a new baseline. */
  public void forget(Collection<String> departed)
  {
    for (String node : departed) {
      log.info("Historical [%s] left tier [%s]: it leaves the plan.", node, config.getTier());
      statsTracker.forget(node);
    }
  }

  /** Forgets everything read so far, e.g. on a leader change: the next reports are baselines. */
  public void reset()
  {
    statsTracker.clear();
    failedPulls.clear();
  }

  /** The tier's live Historicals (in the inventory and announced right now) by name; fills their base URLs. */
  private Map<String, DruidServer> liveHistoricals(Map<String, String> baseUrls)
  {
    final String tier = config.getTier();
    final Map<String, DruidServer> servers = new TreeMap<>();
    for (DruidServer server : inventory.getInventory()) {
      if (InventoryServedSegments.isHistoricalOf(server, tier)) {
        servers.put(server.getName(), server);
      }
    }
    for (DiscoveryDruidNode node : discoveryProvider.getForNodeRole(NodeRole.HISTORICAL).getAllNodes()) {
      final DruidNode druidNode = node.getDruidNode();
      final String name = druidNode.getHostAndPortToUse();
      if (servers.containsKey(name)) {
        baseUrls.put(name, druidNode.getServiceScheme() + "://" + name);
      }
    }
    servers.keySet().retainAll(baseUrls.keySet());
    return servers;
  }

  private boolean isGoverned(DataSegment segment, DateTime now)
  {
    for (Rule rule : ruleManager.getRulesWithDefault(segment.getDataSource())) {
      if (rule.appliesTo(segment, now)) {
        return rule instanceof GetafixLoadRule getafix && getafix.getTieredReplicants().containsKey(config.getTier());
      }
    }
    return false;
  }

  /**
   * @param missing filled with the nodes that answered nothing usable this round, and why
   */
  private Map<String, NodeStatsTracker.NodeDelta> pullStats(Map<String, String> baseUrls, Map<String, String> missing)
  {
    final Map<String, NodeStatsTracker.NodeDelta> deltas = new HashMap<>();
    statsSource.pull(baseUrls, config.getStatsTimeoutMillis()).forEach((node, pulled) -> {
      if (pulled.unreachable()) {
        failedPulls.merge(node, 1, Integer::sum);
      } else {
        failedPulls.remove(node);
      }
      final NodeStatsTracker.Outcome outcome = pulled.report() == null
                                               ? NodeStatsTracker.Outcome.rejected(pulled.problem())
                                               : statsTracker.observe(node, pulled.report());
      if (outcome.problem() != null) {
        log.warn("Getafix has no usable stats from Historical [%s] this round (%s); keeping its last estimate.",
                 node, outcome.problem());
        missing.put(node, outcome.problem());
      } else if (outcome.delta() != null) {
        deltas.put(node, outcome.delta());
      }
    });
    return deltas;
  }
}
