package org.getafix.quality;

import com.google.inject.Inject;
import com.google.inject.Provider;
import org.apache.druid.client.DruidServer;
import org.apache.druid.client.TimelineServerView;
import org.apache.druid.client.selector.ServerSelector;
import org.apache.druid.error.InvalidInput;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.query.BaseQuery;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryContext;
import org.apache.druid.query.QueryRunner;
import org.apache.druid.query.SegmentDescriptor;
import org.apache.druid.query.TableDataSource;
import org.apache.druid.query.spec.MultipleSpecificSegmentSpec;
import org.apache.druid.query.spec.QuerySegmentSpec;
import org.apache.druid.server.coordination.DruidServerMetadata;
import org.apache.druid.timeline.TimelineLookup;
import org.apache.druid.timeline.partition.PartitionChunk;
import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.redundancy.DeadlineShares;
import org.getafix.core.redundancy.HedgePolicy;
import org.getafix.core.contract.QualityKnobs;
import org.getafix.core.redundancy.NodeLatencies;
import org.getafix.core.redundancy.RaceLosses;
import org.getafix.core.redundancy.SubQuerySplit;
import org.getafix.core.redundancy.UpfrontRedundancy;
import org.getafix.core.wire.QueryContextKeys;

import javax.annotation.Nullable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Hedged sub-queries, Zoolander's replication for predictability in its reactive form: a sub-query whose Historical
 * has not answered by its {@link HedgePolicy} hedge point has its segments sent to other holders as well, and the
 * first complete answer wins ({@link BudgetedDruidClient} runs the race). This class finds the other holders the
 * Broker can query, has the policy choose which of them answers each of a sub-query's segments, and keeps the
 * Broker's per-Historical latencies and hedge budget. {@code druid.getafix.quality.hedging} says whether a query is
 * hedged, and a query's own {@value QueryContextKeys#HEDGE} overrides it either way.
 *
 * <p>Replication for predictability in its proactive form, the same race with no wait: with {@code
 * druid.getafix.quality.redundancy} (or a query's {@value QueryContextKeys#REDUNDANCY}) set, {@link UpfrontRedundancy}
 * chooses the hedgeable sub-queries whose segments go to other holders at once, by sPARE's replication factor or
 * Zoolander's model. Those copies are not spent from the hedge budget: the factor's stability condition or the model
 * bounds them. A sub-query not copied is still hedged when late.
 *
 * <p>From the same latencies it says when a budgeted sub-query that cannot be hedged is split instead
 * ({@link SubQuerySplit}), so that the part of it a slow Historical finishes in time counts; with {@code
 * druid.getafix.quality.splitWhen} {@code ALWAYS} (or a query's {@value QueryContextKeys#SPLIT_WHEN}), whatever the
 * Historical's latency.
 */
public class Hedging
{
  /**
   * How often sPARE's search takes a step and Zoolander's rates and decisions are renewed: a few seconds hold enough
   * sub-queries of a busy Broker for a p99, and are short enough for the search to follow a Historical that slows.
   */
  static final Duration REDUNDANCY_PERIOD = Duration.ofSeconds(3);
  private static final Logger log = new Logger(Hedging.class);

  /** Who holds a table's segments, and the Broker's client of each: the Broker's server view, or a test's stub. */
  public interface Holders
  {
    /** The servers holding {@code segment} of {@code table}; none if the Broker does not know the segment. */
    List<DruidServerMetadata> of(String table, SegmentDescriptor segment);

    /** The Broker's client of {@code server}, or null if it has none (the server has just left). */
    @Nullable
    BudgetedDruidClient<?> clientOf(DruidServerMetadata server);
  }

  /**
   * Where a hedgeable sub-query's segments go if it is hedged, and when. A partial plan leaves the segments only the
   * primary's Historical holds ({@link #stranded}) with it: its hedges answer for the rest, which is worth it only to
   * a query that may answer in part.
   */
  static final class Plan
  {
    final double hedgeAfterMillis;
    final Map<BudgetedDruidClient<?>, List<SegmentDescriptor>> groups;
    final List<SegmentDescriptor> stranded;
    /**
     * What {@link UpfrontRedundancy} said of the sub-query, null if its redundancy is off; the groups are its copies,
     * sent at once, if {@link #upfront}.
     */
    @Nullable
    final UpfrontRedundancy.Copies<SegmentDescriptor> copies;
    final boolean upfront;

    Plan(
        double hedgeAfterMillis,
        Map<BudgetedDruidClient<?>, List<SegmentDescriptor>> groups,
        List<SegmentDescriptor> stranded,
        @Nullable UpfrontRedundancy.Copies<SegmentDescriptor> copies,
        boolean upfront
    )
    {
      this.hedgeAfterMillis = hedgeAfterMillis;
      this.groups = groups;
      this.stranded = stranded;
      this.copies = copies;
      this.upfront = upfront;
    }

    boolean isPartial()
    {
      return !stranded.isEmpty();
    }
  }

  private final boolean enabled;
  private final boolean failover;
  private final int maxSplit;
  private final SubQuerySplit.Trigger splitWhen;
  private final UpfrontRedundancy.Mode redundancyMode;
  private final HedgePolicy policy;
  private final NodeLatencies latencies;
  /**
   * The split's second sign of a late Historical ({@link #splitParts}), and what keeps a budgeted sub-query's hedges
   * off Historicals that miss their deadlines.
   */
  private final DeadlineShares deadlineShares;
  /** Which Historicals lose most of their races, as the hedge policy reads them. */
  private final RaceLosses raceLosses;
  private final UpfrontRedundancy redundancy;
  private final Holders holders;
  private final QualityMetrics metrics;
  private final ScheduledExecutorService timer;
  private final AtomicLong hedgeRaces = new AtomicLong();

  @Inject
  public Hedging(
      QualityConfig config,
      HedgePolicy policy,
      NodeLatencies latencies,
      RaceLosses raceLosses,
      UpfrontRedundancy redundancy,
      Holders holders,
      QualityMetrics metrics
  )
  {
    this.enabled = config.isHedging();
    this.failover = config.isFailover();
    this.maxSplit = config.getMaxSplit();
    this.splitWhen = config.getSplitWhen();
    this.redundancyMode = config.getRedundancy();
    // One thread, even with hedging off by default, since a query may ask for it: the thread sends the hedges that
    // are due and ends the redundancy's periods. Druid's client makes a send wait for a free connection to its
    // Historical: that holds up later hedges, but no answer, since no race's lock is held meanwhile. One sender also
    // keeps a straggler whose connections are full from taking a burst of hedges when they free.
    this.timer = Execs.scheduledSingleThreaded("getafix-hedge-timer-%d");
    this.policy = policy;
    this.latencies = latencies;
    this.deadlineShares = new DeadlineShares(
        new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, System::nanoTime),
        DeadlineShares.MIN_SAMPLES
    );
    this.raceLosses = raceLosses;
    this.redundancy = redundancy;
    this.holders = holders;
    this.metrics = metrics;
    final long periodMillis = REDUNDANCY_PERIOD.toMillis();
    timer.scheduleAtFixedRate(this::endRedundancyPeriod, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  /**
   * Ends one period of the copies sent up front: sPARE's search takes a step on it and Zoolander's inputs are renewed.
   * Never throws, which would end the timer's schedule.
   */
  private void endRedundancyPeriod()
  {
    try {
      metrics.redundancy(redundancyMode, redundancy.endPeriod(REDUNDANCY_PERIOD.toMillis() / 1e3, latencies.size()));
    }
    catch (RuntimeException e) {
      log.warn(e, "Could not end a redundancy period");
    }
  }

  /**
   * How {@code subQuery} to {@code primaryHost} would be hedged, or null if it will not be: hedging is off for it, the
   * query does not read one table's specific segments, no segment (or, unless {@code partialAnswer}, not every
   * segment) has another holder the Broker can query, or the policy sees no hedge point within {@code
   * remainingMillis}. Each hedgeable sub-query earns the hedge budget its share.
   *
   * @param partialAnswer whether the sub-query may answer for part of its segments (a budgeted query that allows a
   *                      partial answer), so that the segments with other holders are worth hedging on their own
   */
  @Nullable
  Plan plan(Query<?> subQuery, String primaryHost, double remainingMillis, boolean partialAnswer)
  {
    if (!subQuery.context().getBoolean(QueryContextKeys.HEDGE, enabled)
        || !(subQuery.getDataSource() instanceof TableDataSource)) {
      return null;
    }
    final QuerySegmentSpec spec = subQuery instanceof BaseQuery ? ((BaseQuery<?>) subQuery).getQuerySegmentSpec() : null;
    if (!(spec instanceof MultipleSpecificSegmentSpec)) {
      return null;
    }
    policy.onPrimary();
    metrics.hedgeable();
    final String table = ((TableDataSource) subQuery.getDataSource()).getName();
    final List<SegmentDescriptor> segments = ((MultipleSpecificSegmentSpec) spec).getDescriptors();
    final Map<String, BudgetedDruidClient<?>> clientOf = new HashMap<>();
    final Map<SegmentDescriptor, List<String>> holdersOf = new HashMap<>();
    final Function<SegmentDescriptor, List<String>> segmentHolders =
        segment -> holdersOf.computeIfAbsent(segment, held -> queryableHolders(table, held, clientOf));
    final UpfrontRedundancy.Copies<SegmentDescriptor> copies =
        redundancy.copies(redundancyMode(subQuery.context(), redundancyMode), primaryHost, segments, segmentHolders);
    if (copies != null && !copies.isEmpty()) {
      if (partialAnswer || copies.stranded().isEmpty()) {
        return new Plan(0, groups(copies.byHolder(), clientOf), copies.stranded(), copies, true);
      }
      // Copies that cannot answer for every segment cannot win the race of a query that answers in full.
      redundancy.notSent(copies, copies.byHolder().keySet());
    }
    final HedgePolicy.Reassignment<SegmentDescriptor> reassignment = Double.isFinite(remainingMillis)
        ? policy.reassignBeforeDeadline(primaryHost, segments, segmentHolders, deadlineShares, remainingMillis)
        : policy.reassignWherePossible(primaryHost, segments, segmentHolders);
    final Map<String, List<SegmentDescriptor>> byHost = reassignment.byHolder();
    if (byHost.isEmpty() || !(partialAnswer || reassignment.stranded().isEmpty())) {
      return null;
    }
    // The fastest alternative of all is the chosen holder of some segment, so the chosen holders set the same cap.
    final double hedgeAfter = policy.hedgeAfterMillis(primaryHost, new ArrayList<>(byHost.keySet()), remainingMillis);
    if (hedgeAfter == HedgePolicy.NO_HEDGE) {
      return null;
    }
    return new Plan(hedgeAfter, groups(byHost, clientOf), reassignment.stranded(), copies, false);
  }

  /**
   * Where {@code subQuery}'s segments go when {@code unreachableHost}, its Historical, cannot be reached: each to the
   * other holder the Broker can query with the lowest expected latency. Null if the sub-query does not read specific
   * segments of one table, or a segment has no other holder (the query then fails, as in stock Druid). Asked only
   * where {@link #failsOver()}.
   */
  @Nullable
  Map<BudgetedDruidClient<?>, List<SegmentDescriptor>> failover(Query<?> subQuery, String unreachableHost)
  {
    final QuerySegmentSpec spec = subQuery instanceof BaseQuery ? ((BaseQuery<?>) subQuery).getQuerySegmentSpec() : null;
    if (!(spec instanceof MultipleSpecificSegmentSpec) || !(subQuery.getDataSource() instanceof TableDataSource)) {
      return null;
    }
    final String table = ((TableDataSource) subQuery.getDataSource()).getName();
    final Map<String, BudgetedDruidClient<?>> clientOf = new HashMap<>();
    final HedgePolicy.Reassignment<SegmentDescriptor> reassignment = policy.reassignWherePossible(
        unreachableHost,
        ((MultipleSpecificSegmentSpec) spec).getDescriptors(),
        segment -> queryableHolders(table, segment, clientOf)
    );
    if (reassignment.byHolder().isEmpty() || !reassignment.stranded().isEmpty()) {
      return null;
    }
    return groups(reassignment.byHolder(), clientOf);
  }

  /** Whether a hedged sub-query whose Historical cannot be reached sends its hedges at once. */
  boolean failsOver()
  {
    return failover;
  }

  /** The segments of each host, by the Broker's client of the host. */
  private static Map<BudgetedDruidClient<?>, List<SegmentDescriptor>> groups(
      Map<String, List<SegmentDescriptor>> byHost,
      Map<String, BudgetedDruidClient<?>> clientOf
  )
  {
    final Map<BudgetedDruidClient<?>, List<SegmentDescriptor>> groups = new LinkedHashMap<>();
    byHost.forEach((host, segments) -> groups.computeIfAbsent(clientOf.get(host), client -> new ArrayList<>())
                                             .addAll(segments));
    return groups;
  }

  /**
   * How a query's hedged sub-queries are copied up front: its {@value QueryContextKeys#REDUNDANCY}, the name of a
   * mode in any case, else {@code configured}.
   *
   * @throws org.apache.druid.error.DruidException (invalid input, HTTP 400) for any other value
   */
  static UpfrontRedundancy.Mode redundancyMode(QueryContext context, UpfrontRedundancy.Mode configured)
  {
    final Object value = context.get(QueryContextKeys.REDUNDANCY);
    if (value == null) {
      return configured;
    }
    for (UpfrontRedundancy.Mode mode : UpfrontRedundancy.Mode.values()) {
      if (value instanceof String && mode.name().equalsIgnoreCase(((String) value).trim())) {
        return mode;
      }
    }
    throw InvalidInput.exception(
        "Query context key [%s] must be one of %s, but was [%s]",
        QueryContextKeys.REDUNDANCY,
        Arrays.toString(UpfrontRedundancy.Mode.values()),
        value
    );
  }

  /**
   * Into how many parts budgeted {@code subQuery} to {@code host} is split ({@link SubQuerySplit}) with {@code
   * remainingMillis} left and {@code spareConnections} to the Historical for the parts beyond the first: at most its
   * query's {@value QueryContextKeys#SPLIT}, else {@code maxSplit}, where its {@value QueryContextKeys#SPLIT_WHEN},
   * else {@code splitWhen}, says it is split; 1 if it does not read one table's specific segments.
   */
  int splitParts(Query<?> subQuery, String host, double remainingMillis, int spareConnections)
  {
    final QuerySegmentSpec spec = subQuery instanceof BaseQuery ? ((BaseQuery<?>) subQuery).getQuerySegmentSpec() : null;
    if (!(spec instanceof MultipleSpecificSegmentSpec) || !(subQuery.getDataSource() instanceof TableDataSource)) {
      return 1;
    }
    final int maxParts = maxSplit(subQuery.context(), maxSplit);
    if (maxParts == 1) {
      // Off: every budgeted sub-query without a hedge asks, so it reads no latency window.
      return 1;
    }
    final int segments = ((MultipleSpecificSegmentSpec) spec).getDescriptors().size();
    return new SubQuerySplit(maxParts, splitWhen(subQuery.context(), splitWhen))
        .parts(segments, () -> policy.expectedMillis(host), () -> deadlineShare(host), remainingMillis, spareConnections);
  }

  /**
   * Which of a query's budgeted sub-queries are split: its {@value QueryContextKeys#SPLIT_WHEN}, the name of a trigger
   * in any case, else {@code configured}.
   *
   * @throws org.apache.druid.error.DruidException (invalid input, HTTP 400) for any other value
   */
  static SubQuerySplit.Trigger splitWhen(QueryContext context, SubQuerySplit.Trigger configured)
  {
    final Object value = context.get(QueryContextKeys.SPLIT_WHEN);
    if (value == null) {
      return configured;
    }
    for (SubQuerySplit.Trigger trigger : SubQuerySplit.Trigger.values()) {
      if (value instanceof String && trigger.name().equalsIgnoreCase(((String) value).trim())) {
        return trigger;
      }
    }
    throw InvalidInput.exception(
        "Query context key [%s] must be one of %s, but was [%s]",
        QueryContextKeys.SPLIT_WHEN,
        Arrays.toString(SubQuerySplit.Trigger.values()),
        value
    );
  }

  /**
   * The most parts {@code context} lets a sub-query be split into: its {@value QueryContextKeys#SPLIT}, a whole
   * number (or a string holding one) in the range of {@code druid.getafix.quality.maxSplit}, else {@code configured}.
   *
   * @throws org.apache.druid.error.DruidException (invalid input, HTTP 400) for any other value
   */
  static int maxSplit(QueryContext context, int configured)
  {
    final Object value = context.get(QueryContextKeys.SPLIT);
    if (value == null) {
      return configured;
    }
    final Integer parts = wholeNumber(value);
    if (parts != null && QualityKnobs.MAX_SPLIT.accepts(parts)) {
      return parts;
    }
    throw InvalidInput.exception(
        "Query context key [%s] must be a whole number of parts, %s (1 never splits), but was [%s]",
        QueryContextKeys.SPLIT,
        QualityKnobs.MAX_SPLIT.requirement(),
        value
    );
  }

  /** {@code value} as an int if it is a whole number or a string holding one; else null. */
  @Nullable
  private static Integer wholeNumber(Object value)
  {
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      final long n = ((Number) value).longValue();
      return n == (int) n ? (int) n : null;
    }
    if (value instanceof String) {
      try {
        return Integer.parseInt(((String) value).trim());
      }
      catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  /** The hosts holding {@code segment} that the Broker has a client of, noting each client in {@code clientOf}. */
  private List<String> queryableHolders(
      String table,
      SegmentDescriptor segment,
      Map<String, BudgetedDruidClient<?>> clientOf
  )
  {
    final List<String> hosts = new ArrayList<>();
    for (DruidServerMetadata holder : holders.of(table, segment)) {
      final String host = holder.getHost();
      final BudgetedDruidClient<?> client = host == null ? null : holders.clientOf(holder);
      if (client != null) {
        clientOf.put(host, client);
        hosts.add(host);
      }
    }
    return hosts;
  }

  /**
   * The query id of the hedges of one sub-query of {@code query}: its own id with a suffix unique on this Broker.
   * Druid cancels by query id, on every query of that id on the server, so the hedges of a query's other sub-queries,
   * which may run on the same server, must not share it.
   */
  String hedgeId(Query<?> query)
  {
    return query.getId() + "-hedge-" + hedgeRaces.incrementAndGet();
  }

  /** Runs {@code hedge} at the plan's hedge point. */
  ScheduledFuture<?> atHedgePoint(Plan plan, Runnable hedge)
  {
    return timer.schedule(hedge, (long) Math.ceil(plan.hedgeAfterMillis * 1000), TimeUnit.MICROSECONDS);
  }

  /**
   * Whether the hedges of {@code plan} may go: copies sent up front always (sPARE's factor and the stability
   * condition, or Zoolander's model, bound them), hedges if the hedge budget lets them, spending its share.
   */
  boolean tryHedge(Plan plan)
  {
    return plan.upfront || policy.tryHedge();
  }

  /**
   * A sub-query to {@code host} answered, or was cut at its deadline or {@code lost} to its hedges, after {@code
   * millis}.
   */
  void record(String host, long millis, boolean lost)
  {
    latencies.record(host, millis);
    raceLosses.record(host, lost);
    redundancy.attempted(millis);
  }

  /**
   * A budgeted sub-query to {@code host} answered, or was cut at its deadline ({@code lost}), after {@code millis} of
   * the {@code millisToDeadline} it had when sent.
   */
  void recordBudgeted(String host, long millis, long millisToDeadline, boolean lost)
  {
    record(host, millis, lost);
    deadlineShares.record(host, millis, millisToDeadline);
  }

  /**
   * A hedge to {@code host} was cut at its deadline after {@code millis} of the {@code millisToDeadline} it had when
   * sent. It counts toward the host's deadline share only: not as a latency or a lost race, which Zoolander's model
   * reads as the host's own service, while a hedge is sent late, behind the primary's wait.
   */
  void recordCutHedge(String host, long millis, long millisToDeadline)
  {
    deadlineShares.record(host, millis, millisToDeadline);
  }

  /** {@link DeadlineShares#share} of {@code host}. */
  double deadlineShare(String host)
  {
    return deadlineShares.share(host);
  }

  /** The sub-query of {@code plan} had its first complete answer after {@code millis}, NaN if none. */
  void answered(Plan plan, double millis)
  {
    redundancy.answered(plan.copies, millis);
  }

  /** A copy sent up front to {@code host} ended, answered or not, after {@code millis}. */
  void copyDone(Plan plan, String host, double millis)
  {
    if (plan.upfront && plan.copies != null) {
      redundancy.copyDone(plan.copies, host, millis);
    }
  }

  /** The copies sent up front to {@code hosts} could not be sent. */
  void copiesNotSent(Plan plan, List<String> hosts)
  {
    if (plan.upfront && plan.copies != null) {
      redundancy.notSent(plan.copies, hosts);
    }
  }

  void sent(Query<?> query, Plan plan)
  {
    metrics.hedge(query, plan.upfront ? GetafixMetric.COPY_SENT : GetafixMetric.HEDGE_SENT);
  }

  /** A sub-query went to another holder because its own Historical could not be reached. */
  void failedOver(Query<?> query)
  {
    metrics.hedge(query, GetafixMetric.FAILOVER_SENT);
  }

  /** A budgeted sub-query went to its Historical as {@code parts} sub-queries ({@link #splitParts}). */
  void split(Query<?> query, int parts)
  {
    metrics.split(query, parts);
  }

  void won(Query<?> query, Plan plan)
  {
    if (plan.upfront) {
      metrics.hedge(query, GetafixMetric.COPY_WON);
    } else {
      policy.onHedgeWon();
      metrics.hedge(query, GetafixMetric.HEDGE_WON);
    }
  }

  /** The holders of a segment as the Broker's timeline sees them. */
  public static final class ServerViewHolders implements Holders
  {
    /** A provider: the server view is built with the client factory, which needs this class. */
    private final Provider<TimelineServerView> serverView;

    @Inject
    public ServerViewHolders(Provider<TimelineServerView> serverView)
    {
      this.serverView = serverView;
    }

    @Override
    public List<DruidServerMetadata> of(String table, SegmentDescriptor segment)
    {
      final Optional<TimelineLookup<String, ServerSelector>> timeline =
          serverView.get().getTimeline(new TableDataSource(table));
      if (timeline.isEmpty()) {
        return List.of();
      }
      final PartitionChunk<ServerSelector> chunk = timeline.get().findChunk(
          segment.getInterval(),
          segment.getVersion(),
          segment.getPartitionNumber()
      );
      return chunk == null ? List.of() : chunk.getObject().getAllServers();
    }

    @Override
    @Nullable
    public BudgetedDruidClient<?> clientOf(DruidServerMetadata server)
    {
      final QueryRunner<?> runner = serverView.get().getQueryRunner(new DruidServer(server));
      return runner instanceof BudgetedDruidClient ? (BudgetedDruidClient<?>) runner : null;
    }
  }
}
