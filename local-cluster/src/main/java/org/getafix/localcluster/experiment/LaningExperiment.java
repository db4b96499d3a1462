package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.core.redundancy.SubQuerySplit;
import org.getafix.core.wire.Coverage;
import org.getafix.localcluster.client.BrokerAnswer;
import org.getafix.localcluster.client.BrokerFormats;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.client.QualityClient;
import org.getafix.localcluster.cluster.ClusterConfig;
import org.getafix.localcluster.cluster.DruidRole;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The quality monitor's budget control against Druid's own query laning at the same response-time target and answer
 * quality, on a live cluster: the budget paper's headline (He et al., §5.4: budget control sustains about twice the
 * throughput of a tuned queue limit). Used by {@code ./getafix bench live}'s {@code laning} experiment.
 *
 * <p>One Broker serves both setups, so that nothing differs between them but what each query's lane asks for: Druid's
 * {@code manual} laning strategy limits lane {@value #STOCK_LANE} to the tuned number of queries at once and turns
 * the rest away with HTTP 429, the queue-length control the paper compares with (Druid's
 * {@code druid.query.scheduler.numThreads} does the same for all queries with
 * {@code druid.server.http.enableQueryRequestsQueuing=false}; with queuing, Druid 33's default, the excess waits
 * without bound, and no limit keeps the response time at a target once the load passes capacity). Lane
 * {@value #GETAFIX_LANE} is in the quality monitor's {@code controlledLanes}: its queries carry no budget of their
 * own, and the lane's hybrid budget controller holds their mean response time at T by cutting answers at their
 * deadlines.
 *
 * <p>The workload is a {@link LaningWorkload}. {@link LaningWorkload#HOURLY} is {@link BudgetExperiment}'s: hourly
 * timeseries with a cardinality aggregator that hashes every row, over 10 to all of the dataset's hours, whose answer
 * quality is the answered share of its hours (what a mature run would measure: a missing hour is a missing bucket),
 * known from the coverage without re-running anything. {@link LaningWorkload#CONCAVE}'s one-bucket aggregates are
 * nearly right from part of their segments; each answer is scored against the whole answer of the same query, which
 * {@link #calibrate} fetches once per distinct query on the idle cluster (the data does not change). Either way the
 * experiment knows every answer's quality without mature runs, and the Broker runs them only to learn the quality
 * profiles a budget split reads ({@link #MATURE_SAMPLE_RATE_FOR_SPLIT}). Arrivals are open-loop, evenly spaced, so
 * that a query turned away does not make its client send faster; even spacing has no bursts, which a queue limit
 * would turn away.
 *
 * <p>The controlled lane's budgeted sub-queries are split into parts at descending priority as
 * {@link Settings#splitWhen} says ({@code druid.getafix.quality.splitWhen}): by default only those to a Historical
 * expected to miss the deadline, which under this even overload are few; with {@link SubQuerySplit.Trigger#ALWAYS}
 * every one, so that each Historical runs every queued query's first part before any second part, as the budget
 * paper's processor sharing would. The Broker then gets the connections and reader threads the parts hold
 * ({@link #SPLIT_ALWAYS_CONNECTIONS}). The Historicals serve {@link #HISTORICAL_HTTP_THREADS} requests at once in
 * both setups ({@link #HISTORICAL_PROPERTIES}), so that the parts reach their priority queues.
 *
 * @param cluster  the cluster, with {@code dataset} ingested
 * @param dataset  the hourly dataset the queries read
 * @param settings how the experiment runs
 */
public record LaningExperiment(LocalDruidCluster cluster, SyntheticDataset dataset, Settings settings)
{
  public static final String STOCK_LANE = "stock";
  public static final String GETAFIX_LANE = "getafix";
  /** The mean answer quality a load must keep, the budget paper's and the simulator's. */
  public static final double QUALITY_TARGET = 0.9;
  public static final String BUDGET_SPLIT_NONE = "NONE";
  /** Every budget split the Broker knows ({@code druid.getafix.quality.budgetSplit}). */
  public static final List<String> BUDGET_SPLITS = List.of(BUDGET_SPLIT_NONE, "EQ_RESV", "MAX_QUALITY");
  /**
   * The most queries the sweep puts in flight at T (rate × T): each budgeted query holds one of the Broker's
   * connections to every Historical ({@value LocalDruidCluster#BROKER_CONNECTIONS} as launched) and a reader thread per
   * sub-query until its deadline, and beyond this its sub-queries would wait for a connection, which measures the
   * Broker's pools rather than control.
   */
  static final double MAX_IN_FLIGHT = 8;
  /**
   * The Broker's connections to each Historical when every budgeted sub-query is split: a split adds parts only while
   * half the pool is free, and at the launcher's {@value LocalDruidCluster#BROKER_CONNECTIONS} the sub-queries of the
   * queries in flight alone would take that half. Stock's lane, a handful of queries at once, uses no more of them.
   */
  static final int SPLIT_ALWAYS_CONNECTIONS = 24;
  private static final String HTTP_THREADS = "druid.server.http.numThreads";
  /**
   * The requests a Historical serves at once ({@code druid.server.http.numThreads}); it queues the rest first come,
   * first served, before their priorities count. Above the Broker's {@link #SPLIT_ALWAYS_CONNECTIONS}, so that every
   * part reaches the Historical's processing queue. Stock's lane, a handful of queries at once, never needs more than
   * the launcher's {@value LocalDruidCluster#HISTORICAL_HTTP_THREADS}, and neither do the sub-queries split when late.
   */
  static final int HISTORICAL_HTTP_THREADS = 32;
  /** The Historicals' runtime properties for this experiment, on top of the launcher's, in both setups. */
  public static final Map<String, String> HISTORICAL_PROPERTIES =
      Map.of(HTTP_THREADS, String.valueOf(HISTORICAL_HTTP_THREADS));
  private static final int WARM_UP_CLIENTS = 2;
  private static final JitCompilerCpu.WarmUp JIT_WARM_UP = JitCompilerCpu.WarmUp.QUERIES;
  /** A probe level ends after its queries or this, whichever is first. */
  private static final Duration PROBE_MAX = Duration.ofSeconds(30);
  private static final Duration BROKER_RESTART = Duration.ofMinutes(10);
  /**
   * The share of the controlled lane's queries the Broker re-runs whole when a budget split of
   * {@link LaningWorkload#CONCAVE} reads their quality profile: without mature runs the profiles stay linear, and the
   * split would treat the concave queries as linear ones. A tenth of the lane's queries is some 20 in a 20 s step at
   * 10 queries per second, enough to fill the profile's bins within the first steps; they load the Historicals that the
   * budgeted queries use, which counts against druid-getafix. The hourly workload's profile is linear, which is what
   * the split assumes without them.
   */
  static final double MATURE_SAMPLE_RATE_FOR_SPLIT = 0.1;
  /** The quality endpoint's key of a lane's controller, beside the datasources' (quality-monitor's BudgetControl). */
  private static final String LANE_CONTROLLER_PREFIX = "lane:";

  /**
   * How the experiment runs.
   *
   * @param loadFactors   the sweep's offered loads, ascending, in units of the tuned limit's whole-answer throughput
   * @param leadIn        time at a sweep's first load before it is measured: longer than {@code settle}, since the
   *                      controller starts each sweep from the budget the last one left it at
   * @param settle        time at each later load before it is measured, for the controller and the queues to follow
   * @param measure       time measured at each load
   * @param probeQueries  whole answers counted at each probe level
   * @param brokerWarmUp  queries through both lanes after the Broker's restart, before the first sweep
   * @param budgetSplit   {@code druid.getafix.quality.budgetSplit} of the controlled lane, one of
   *                      {@link #BUDGET_SPLITS}
   * @param splitWhen     {@code druid.getafix.quality.splitWhen} of the controlled lane: which of its budgeted
   *                      sub-queries are split into parts
   * @param workload      the queries and how their answers' quality is known
   * @param queryIdPrefix the start of every query's id, which tells whose queries they are in the Broker's logs
   */
  public record Settings(
      List<Double> loadFactors,
      Duration leadIn,
      Duration settle,
      Duration measure,
      int probeQueries,
      Duration brokerWarmUp,
      String budgetSplit,
      SubQuerySplit.Trigger splitWhen,
      LaningWorkload workload,
      String queryIdPrefix
  )
  {
    public Settings
    {
      Objects.requireNonNull(splitWhen, "splitWhen");
      final List<Double> factors = List.copyOf(loadFactors);
      if (factors.isEmpty() || IntStream.range(1, factors.size()).anyMatch(i -> factors.get(i) <= factors.get(i - 1))) {
        throw new IllegalArgumentException("loadFactors must be ascending and not empty, got " + factors);
      }
      loadFactors = factors;
      if (!BUDGET_SPLITS.contains(budgetSplit)) {
        throw new IllegalArgumentException("budgetSplit must be one of " + BUDGET_SPLITS + ", got " + budgetSplit);
      }
    }

    /**
     * The bench's: 0.5× to 3× the tuned limit's capacity, each load 10 s settling and 20 s measured (the first 20 s
     * settling); quick: fewer, coarser loads, 4 s and 8 s (the first 8 s).
     */
    public static Settings standard(
        boolean quick,
        String budgetSplit,
        SubQuerySplit.Trigger splitWhen,
        LaningWorkload workload,
        String queryIdPrefix
    )
    {
      return quick
             ? new Settings(List.of(0.5, 1.0, 1.5, 2.0, 3.0), Duration.ofSeconds(8), Duration.ofSeconds(4),
                            Duration.ofSeconds(8), 15, Duration.ofSeconds(8), budgetSplit, splitWhen, workload,
                            queryIdPrefix)
             : new Settings(List.of(0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0), Duration.ofSeconds(20),
                            Duration.ofSeconds(10), Duration.ofSeconds(20), 30, Duration.ofSeconds(15), budgetSplit,
                            splitWhen, workload, queryIdPrefix);
    }

    /**
     * The sweep's offered rates in queries per second: each load factor times {@code referencePerSecond}, as many as
     * keep rate × T within {@link #MAX_IN_FLIGHT} (the first always).
     */
    public List<Double> rates(double referencePerSecond, long targetMillis)
    {
      final List<Double> rates = new ArrayList<>();
      for (double factor : loadFactors) {
        final double rate = factor * referencePerSecond;
        if (!rates.isEmpty() && rate * targetMillis / 1000 > MAX_IN_FLIGHT) {
          break;
        }
        rates.add(rate);
      }
      return rates;
    }
  }

  /**
   * What {@link #calibrate} found.
   *
   * @param probe              whole answers at 1, 2, 3, ... clients
   * @param target             T (from the probe's first level) and {@link #QUALITY_TARGET}
   * @param limit              stock Druid's tuned lane limit ({@link ConcurrencyProbe#tunedLimit})
   * @param referencePerSecond whole answers per second at that limit: the load steps' unit
   * @param jitWarmUp          how the Historicals' JIT compilers were warmed up first
   * @param wholeAnswers       the whole answer of each of the workload's distinct queries, by
   *                           {@link LaningWorkload#firstAlike}, when it measures answers against them; else empty.
   *                           Read only.
   */
  public record Calibration(
      ConcurrencyProbe probe,
      LoadTarget target,
      int limit,
      double referencePerSecond,
      Map<String, Object> jitWarmUp,
      List<JsonNode> wholeAnswers
  )
  {
    public Calibration
    {
      wholeAnswers = List.copyOf(wholeAnswers);
    }
  }

  /**
   * Hands placement to stock Druid with one replica per segment and waits for it ({@link StragglerPlacement}; with
   * equal Historicals its condition that a fifth or more are on the first holds for any even spread); returns how many
   * segments each Historical holds.
   */
  public Map<String, Long> placeOneReplicaEach() throws Exception
  {
    final Map<String, Set<String>> holders = StragglerPlacement.oneReplicaEach(cluster, dataset, 0);
    return holders.values()
                  .stream()
                  .flatMap(Set::stream)
                  .collect(Collectors.groupingBy(h -> h, LinkedHashMap::new, Collectors.counting()));
  }

  /**
   * Warms the Historicals' JIT compilers up, then measures whole answers at 1, 2, 3, ... closed-loop clients on the
   * Broker as it was started (no lanes): T from the first level, then one more client until a level misses T.
   */
  public Calibration calibrate() throws Exception
  {
    final Map<String, Object> jitWarmUp = BudgetExperiment.warmUpJit(
        cluster, WARM_UP_CLIENTS, plain("warm-up-"), JIT_WARM_UP
    );
    final List<ConcurrencyProbe.Level> levels = new ArrayList<>();
    levels.add(probeLevel(1));
    if (levels.get(0).answered() == 0) {
      // No whole answer alone: there is no target to set, and a Broker given none would refuse to start.
      throw new IllegalStateException("no whole answer from one client within " + PROBE_MAX.toSeconds() + " s");
    }
    final LoadTarget target = new LoadTarget(ConcurrencyProbe.targetMillis(levels.get(0)), QUALITY_TARGET);
    while (new ConcurrencyProbe(levels).goOn(target)) {
      levels.add(probeLevel(levels.size() + 1));
    }
    final ConcurrencyProbe probe = new ConcurrencyProbe(levels);
    final int limit = probe.tunedLimit(target);
    return new Calibration(probe, target, limit, probe.perSecond(limit), jitWarmUp, wholeAnswers());
  }

  /**
   * The whole answer of each of the workload's distinct queries, one at a time on the Broker as it was started (no
   * lanes, no budget); none when the workload does not measure answers.
   *
   * @throws IllegalStateException if one came back failed or partial: answers scored against it would score wrong
   */
  private List<JsonNode> wholeAnswers() throws Exception
  {
    if (!settings.workload().measuresAnswers()) {
      return List.of();
    }
    final QualityClient broker = new QualityClient(cluster.broker().uri());
    final List<JsonNode> answers = new ArrayList<>();
    for (long i = 0; i < LaningWorkload.distinctQueries(dataset); i++) {
      final BrokerAnswer answer = broker.nativeQuery(plain("whole-").apply(i).body());
      final Coverage coverage = BrokerFormats.coverage(answer.context());
      if (answer.status() != 200 || coverage != null && coverage.fraction() < 1) {
        throw new IllegalStateException(
            "the whole answer of query " + i + " came back with HTTP " + answer.status() + " and coverage "
            + (coverage == null ? "none" : coverage.fraction()) + ": " + answer.body()
        );
      }
      answers.add(answer.body());
    }
    return answers;
  }

  private ConcurrencyProbe.Level probeLevel(int clients) throws Exception
  {
    // The first completions started while the clients were still starting up: two rounds of them are left out.
    final int skip = 2 * clients;
    final BudgetLoad run = new BudgetLoad(cluster, BudgetExperiment.INTERVAL, null);
    try {
      run.closedLoop(clients, plain("probe-" + clients + "-"));
      run.awaitCompleted(clients + " clients' whole answers", skip + settings.probeQueries(), PROBE_MAX);
    }
    finally {
      run.stop();
    }
    return ConcurrencyProbe.Level.of(clients, run.outcomes(o -> true), skip, run.durationMillis());
  }

  /**
   * Restarts the Broker with both lanes: lane {@value #STOCK_LANE} limited to the tuned limit by Druid's
   * {@code manual} laning, lane {@value #GETAFIX_LANE} under hybrid budget control at T; then sends
   * {@code brokerWarmUp} of queries through both, so that neither setup's first sweep runs on a cold Broker.
   */
  public void configureBroker(Calibration calibration) throws Exception
  {
    cluster.restartBroker(brokerProperties(calibration, settings, cluster.historicals().size()), BROKER_RESTART);
    final BudgetLoad run = new BudgetLoad(cluster, BudgetExperiment.INTERVAL, null);
    try {
      run.closedLoop(
          WARM_UP_CLIENTS,
          i -> laneQuery(i % 2 == 0 ? STOCK_LANE : GETAFIX_LANE, "broker-warm-up-", i, calibration)
      );
      run.awaitCompleted("the Broker's warm-up", Integer.MAX_VALUE, settings.brokerWarmUp());
    }
    finally {
      run.stop();
    }
  }

  /** The Broker's properties on top of the cluster's for both lanes, over {@code historicals} Historicals. */
  static Map<String, String> brokerProperties(Calibration calibration, Settings settings, int historicals)
  {
    final String budgetSplit = settings.budgetSplit();
    final LaningWorkload workload = settings.workload();
    final Map<String, String> properties = new LinkedHashMap<>();
    properties.put("druid.query.scheduler.laning.strategy", "manual");
    properties.put("druid.query.scheduler.laning.lanes." + STOCK_LANE, String.valueOf(calibration.limit()));
    properties.put("druid.getafix.quality.controlledLanes", "[\"" + GETAFIX_LANE + "\"]");
    properties.put("druid.getafix.quality.targetResponseTimeMs", String.valueOf(calibration.target().targetMillis()));
    properties.put("druid.getafix.quality.controlMode", BudgetExperiment.HYBRID);
    properties.put("druid.getafix.quality.budgetSplit", budgetSplit);
    // The experiment knows the answers' quality without mature runs (see the class comment): they would only add
    // load, unless a split needs them to learn a profile that is not linear.
    final boolean profileToLearn = workload.measuresAnswers() && !BUDGET_SPLIT_NONE.equals(budgetSplit);
    properties.put(
        "druid.getafix.quality.matureSampleRate",
        profileToLearn ? String.valueOf(MATURE_SAMPLE_RATE_FOR_SPLIT) : "0"
    );
    properties.put("druid.getafix.quality.splitWhen", settings.splitWhen().name());
    if (settings.splitWhen() == SubQuerySplit.Trigger.ALWAYS) {
      properties.put("druid.broker.http.numConnections", String.valueOf(SPLIT_ALWAYS_CONNECTIONS));
      // Each part holds a reader thread until it answers, as it holds a connection: one for each connection, so that
      // no part that answered in time waits for a thread past its deadline.
      properties.put("druid.getafix.quality.readerThreads", String.valueOf(historicals * SPLIT_ALWAYS_CONNECTIONS));
    }
    return properties;
  }

  /**
   * One sweep through {@code lane}: the offered loads of {@link Settings#rates} in turn, each settled and then
   * measured and handed to {@code onStep}, until one misses the target (a higher load cannot raise the sustained load
   * any more).
   */
  public List<LoadStep> sweep(String lane, Calibration calibration, Consumer<LoadStep> onStep) throws Exception
  {
    final List<Double> rates = settings.rates(calibration.referencePerSecond(), calibration.target().targetMillis());
    final List<LoadStep> steps = new ArrayList<>();
    for (double rate : rates) {
      final LoadStep step = step(lane, rate, calibration, steps.isEmpty() ? settings.leadIn() : settings.settle());
      steps.add(step);
      onStep.accept(step);
      if (!calibration.target().meets(step)) {
        break;
      }
    }
    return steps;
  }

  private LoadStep step(String lane, double rate, Calibration calibration, Duration settle) throws Exception
  {
    final long periodMillis = Math.max(1, Math.round(1000 / rate));
    final String prefix = lane + "-" + Long.toString(System.currentTimeMillis(), 36) + "-";
    final BudgetLoad run = new BudgetLoad(cluster, BudgetExperiment.INTERVAL, null);
    final boolean controlled = GETAFIX_LANE.equals(lane);
    final JsonNode before = controlled ? run.qualityState() : null;
    try {
      run.openLoop(Duration.ofMillis(periodMillis), i -> laneQuery(lane, prefix, i, calibration));
      run.awaitCompleted(lane + " at " + rate + " queries/s", Integer.MAX_VALUE, settle.plus(settings.measure()));
    }
    finally {
      run.stop();
    }
    final double offered = 1000.0 / periodMillis;
    final JsonNode after = controlled ? run.qualityState() : null;
    return LoadStep.of(
        offered,
        offered / calibration.referencePerSecond(),
        run.outcomes(o -> true),
        settle.toMillis(),
        settle.plus(settings.measure()).toMillis(),
        controlled ? budgetOf(lane, after) : Double.NaN,
        controlled ? splitPerQuery(before, after) : Double.NaN
    );
  }

  /** Sub-queries split into parts per budgeted query between two of the quality endpoint's states. */
  static double splitPerQuery(JsonNode before, JsonNode after)
  {
    final long queries = after.path("budgetedQueries").asLong() - before.path("budgetedQueries").asLong();
    final long split = after.path("subQueriesSplit").asLong() - before.path("subQueriesSplit").asLong();
    return queries <= 0 ? Double.NaN : split / (double) queries;
  }

  private static double budgetOf(String lane, JsonNode state)
  {
    return state.path("budgetControl").path(LANE_CONTROLLER_PREFIX + lane).path("budgetMs").asDouble(Double.NaN);
  }

  /**
   * The workload's query {@code i} in {@code lane}, without a budget of its own; its answer scored against the whole
   * answer of the same query when the workload measures answers.
   */
  private BudgetLoad.Request laneQuery(String lane, String queryIdPrefix, long i, Calibration calibration)
  {
    final LaningWorkload workload = settings.workload();
    return new BudgetLoad.Request(
        NativeQuery.withContext(workload.query(dataset, i), Map.of(
            "lane", lane,
            "queryId", settings.queryIdPrefix() + queryIdPrefix + i
        )),
        true,
        workload.measuresAnswers()
        ? online -> PlainAggregateQuality.of(
            online, calibration.wholeAnswers().get((int) workload.firstAlike(dataset, i))
        )
        : null
    );
  }

  /** The workload's queries in no lane and without a budget: whole answers on any Broker. */
  private LongFunction<BudgetLoad.Request> plain(String queryIdPrefix)
  {
    return i -> new BudgetLoad.Request(
        NativeQuery.withContext(settings.workload().query(dataset, i), Map.of(
            "queryId", settings.queryIdPrefix() + queryIdPrefix + i
        )),
        true
    );
  }

  /** The setup in words, for reports. */
  public String describe()
  {
    return String.format(
        Locale.ROOT,
        "%d Historicals capped at %s cores (cgroups %s), one replica per segment; %d hourly segments x %d rows; "
        + "%s over %d to %d hours; open-loop arrivals, evenly spaced; one Broker for both setups, the queries of "
        + "each in a lane of their own; budget split %s; %s",
        cluster.historicals().size(),
        IntStream.range(0, cluster.historicals().size())
                 .mapToObj(i -> String.valueOf(cluster.config().cpuQuota(i)))
                 .collect(Collectors.joining("/")),
        cluster.cgroupsEnabled(), dataset.hours(), dataset.rowsPerHour(), settings.workload().queriesInWords(),
        // Query 0 reads the fewest hours.
        BudgetExperiment.hours(dataset, 0), dataset.hours(), settings.budgetSplit(),
        splitting(settings.splitWhen(), cluster.historicals().size(), historicalHttpThreads(cluster.config()))
    );
  }

  /**
   * How the controlled lane's sub-queries are split, and the connections and threads that bound their parts, in
   * words.
   */
  static String splitting(SubQuerySplit.Trigger splitWhen, int historicals, int historicalHttpThreads)
  {
    final String historicalThreads = String.format(
        Locale.ROOT,
        "the Historicals serve %d requests at once (druid.server.http.numThreads; the launcher sets %d) and queue "
        + "the rest first come, first served",
        historicalHttpThreads, LocalDruidCluster.HISTORICAL_HTTP_THREADS
    );
    if (splitWhen == SubQuerySplit.Trigger.ALWAYS) {
      return String.format(
          Locale.ROOT,
          "every budgeted sub-query split into parts at descending priority (splitWhen ALWAYS, up to maxSplit parts "
          + "while half of the Broker's %d connections to the Historical are free, raised from the launcher's %d, "
          + "with %d reader threads); %s, before the parts' priorities count",
          SPLIT_ALWAYS_CONNECTIONS, LocalDruidCluster.BROKER_CONNECTIONS, historicals * SPLIT_ALWAYS_CONNECTIONS,
          historicalThreads
      );
    }
    return String.format(
        Locale.ROOT,
        "budgeted sub-queries split into parts at descending priority only to a Historical expected to miss the "
        + "deadline (splitWhen LATE, the Broker's %d connections to each Historical); %s",
        LocalDruidCluster.BROKER_CONNECTIONS, historicalThreads
    );
  }

  /** The requests each Historical of a cluster of {@code config} serves at once. */
  static int historicalHttpThreads(ClusterConfig config)
  {
    final String configured = config.roleProperties().getOrDefault(DruidRole.HISTORICAL, Map.of()).get(HTTP_THREADS);
    return configured == null ? LocalDruidCluster.HISTORICAL_HTTP_THREADS : Integer.parseInt(configured.trim());
  }
}
