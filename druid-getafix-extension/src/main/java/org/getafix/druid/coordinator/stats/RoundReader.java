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
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

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
   * Consecutive rounds a Historical's stats request must fail outright (connection refused, reset) before the plan
   * stops placing replicas on it; a late answer is another matter (see {@link #SILENT_ROUNDS}). Druid itself
   * notices a dead Historical only when its ZooKeeper registration times out (30 s by default); by then its segments
   * already have planned copies elsewhere. Two rounds, so that one lost request does not move data.
   */
  private static final int UNREACHABLE_ROUNDS = 2;
  /**
   * Consecutive rounds a Historical may miss the stats deadline (or fail otherwise) and still take replicas, with
   * its last capacity estimate. A late answer is no sign of a dead node nor of a weak one: a Historical busy with
   * queries answers its stats late too, and moving its segments away and back costs more than the stats say. A
   * minute of silence at the default round is longer than Druid's ZooKeeper session timeout, so a Historical that
   * died without refusing connections has left the inventory (and the plan) before; one that is still announced
   * and has answered nothing for that long is hung, and the plan stops relying on it.
   */
  public static final int SILENT_ROUNDS = 12;
  /** A Historical's stats warnings are logged at most once per this many rounds; the metrics count every round. */
  static final int WARN_EVERY_ROUNDS = 12;

  private final GetafixConfig config;
  private final ServerInventoryView inventory;
  private final DruidNodeDiscoveryProvider discoveryProvider;
  private final MetadataRuleManager ruleManager;
  private final StatsSource statsSource;
  private final LongSupplier clockMillis;
  private final NodeStatsTracker statsTracker;
  /** When the last round's reports were received, on {@link #clockMillis}; -1 before the first. */
  private long lastReceivedMillis = -1;
  /** Consecutive rounds whose request failed outright. */
  private final Map<String, Integer> failedPulls = new HashMap<>();
  /** Consecutive rounds without an answer: failed or late. */
  private final Map<String, Integer> silentRounds = new HashMap<>();
  /** Round of the last stats warning logged per Historical. */
  private final Map<String, Long> lastWarned = new HashMap<>();
  private long round;

  @Inject
  public RoundReader(
      GetafixConfig config,
      ServerInventoryView inventory,
      DruidNodeDiscoveryProvider discoveryProvider,
      MetadataRuleManager ruleManager,
      StatsSource statsSource
  )
  {
    this(config, inventory, discoveryProvider, ruleManager, statsSource,
         () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime()));
  }

  /**
   * @param clockMillis a monotonic clock in ms, which the Historicals' uptimes are checked against
   */
  public RoundReader(
      GetafixConfig config,
      ServerInventoryView inventory,
      DruidNodeDiscoveryProvider discoveryProvider,
      MetadataRuleManager ruleManager,
      StatsSource statsSource,
      LongSupplier clockMillis
  )
  {
    this.config = config;
    this.inventory = inventory;
    this.discoveryProvider = discoveryProvider;
    this.ruleManager = ruleManager;
    this.statsSource = statsSource;
    this.clockMillis = clockMillis;
    this.statsTracker = new NodeStatsTracker(config.getStatsTimeoutMillis());
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
    round++;
    failedPulls.keySet().retainAll(servers.keySet());
    silentRounds.keySet().retainAll(servers.keySet());
    lastWarned.keySet().retainAll(servers.keySet());
    final Map<String, String> statsMissing = new TreeMap<>();
    final Map<String, String> statsImplausible = new TreeMap<>();
    final long previousReceipt = lastReceivedMillis;
    final Map<String, NodeStatsTracker.NodeDelta> deltas = pullStats(baseUrls, statsMissing, statsImplausible);
    // The round the deltas normally cover: the time between the last two rounds' receipts; 0 when unknown.
    final RoundStats stats = RoundStats.of(deltas, previousReceipt < 0 ? 0 : lastReceivedMillis - previousReceipt);

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
    // A segment is measured when every holder's counters covered the round; else its 0 would be a guess.
    segments.forEach((id, segment) -> segmentSamples.add(new SegmentSample(
        id,
        segment.getSize(),
        stats.accessTime().getOrDefault(id, 0.0),
        0,
        predecessors.get(id),
        deltas.keySet().containsAll(holders.get(id))
    )));
    final List<NodeSample> nodeSamples = new ArrayList<>(servers.size());
    servers.forEach((name, server) -> {
      final boolean placeable =
          failedPulls.getOrDefault(name, 0) < UNREACHABLE_ROUNDS && silentRounds.getOrDefault(name, 0) < SILENT_ROUNDS;
      if (!placeable) {
        // Its first report when it is back is a new baseline: a delta over the silence says nothing of it now.
        statsTracker.forget(name);
      }
      nodeSamples.add(new NodeSample(
          name,
          Math.max(0, server.getMaxSize() - otherBytes.getOrDefault(name, 0L)),
          stats.nodeStats().get(name),
          statsMissing.containsKey(name),
          placeable
      ));
    });
    return new RoundInput(holders, segmentSamples, nodeSamples, statsMissing, statsImplausible, !deltas.isEmpty());
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
    silentRounds.clear();
    lastWarned.clear();
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
   * @param missing     filled with the nodes that answered nothing usable this round, and why
   * @param implausible filled with the nodes whose report was implausible, and the field at fault
   */
  private Map<String, NodeStatsTracker.NodeDelta> pullStats(
      Map<String, String> baseUrls,
      Map<String, String> missing,
      Map<String, String> implausible
  )
  {
    final Map<String, NodeStatsTracker.NodeDelta> deltas = new HashMap<>();
    final Map<String, StatsPuller.Pulled> pulled = statsSource.pull(baseUrls, config.getStatsTimeoutMillis());
    // One receipt time for the round: the pulls share one deadline, which the plausibility check allows for.
    final long receivedMillis = clockMillis.getAsLong();
    lastReceivedMillis = receivedMillis;
    pulled.forEach((node, answer) -> {
      if (answer.unreachable() || answer.late()) {
        silentRounds.merge(node, 1, Integer::sum);
      } else {
        silentRounds.remove(node);
      }
      if (answer.unreachable()) {
        failedPulls.merge(node, 1, Integer::sum);
      } else if (!answer.late()) {
        // A late answer says nothing either way about whether the node takes connections.
        failedPulls.remove(node);
      }
      final NodeStatsTracker.Outcome outcome = answer.report() == null
                                               ? NodeStatsTracker.Outcome.rejected(answer.problem())
                                               : statsTracker.observe(node, answer.report(), receivedMillis);
      if (outcome.problem() != null) {
        warnAtMostEveryFewRounds(node, outcome.problem());
        missing.put(node, outcome.problem());
        if (outcome.implausibleField() != null) {
          implausible.put(node, outcome.implausibleField());
        }
      } else if (outcome.delta() != null) {
        deltas.put(node, outcome.delta());
      }
    });
    return deltas;
  }

  /** A node whose stats stay bad would otherwise log a warning every round; the metrics still count each one. */
  private void warnAtMostEveryFewRounds(String node, String problem)
  {
    final Long last = lastWarned.get(node);
    if (last != null && round - last < WARN_EVERY_ROUNDS) {
      return;
    }
    lastWarned.put(node, round);
    log.warn(
        "Getafix has no usable stats from Historical [%s] this round (%s); keeping its last estimate."
        + " Logged at most once per [%d] rounds per Historical; see getafix/stats/missing.",
        node, problem, WARN_EVERY_ROUNDS
    );
  }
}
