package org.getafix.it.quality;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.core.wire.QueryContextKeys;
import org.getafix.it.cluster.DruidClusterExtension;
import org.getafix.it.cluster.SharedDruidCluster;
import org.getafix.it.getafix.GetafixItCluster;
import org.getafix.localcluster.client.BrokerAnswer;
import org.getafix.localcluster.client.GetafixClient;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.client.QualityClient;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.LocalNode;
import org.getafix.localcluster.cluster.MetricsReceiver;
import org.getafix.localcluster.cluster.ThreadCpu;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.experiment.StragglerPlacement;
import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.QueryOutcome;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.localcluster.workload.WorkloadResult;
import org.getafix.localcluster.workload.WorkloadRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Budgeted queries ({@code getafixBudgetMs}) on the shared live cluster ({@link GetafixItCluster}, whose Broker loads
 * the quality-monitor extension), native and SQL:
 * <ul>
 *   <li>with a budget they meet, timeseries, topN, groupBy and scan answer exactly what the same query without a
 *   budget answers, and their coverage says every segment answered;</li>
 *   <li>with a budget they cannot meet (1 ms) they still answer (HTTP 200), with {@code timedOut} and the late
 *   segments in the coverage;</li>
 *   <li>with one Historical throttled to a straggler, each query type's answer comes about when the budget ends, its
 *   coverage is exactly the straggler's segments late (their intervals missing) and every other segment answered,
 *   and its rows are exactly the unthrottled answer's rows of the answered hours;</li>
 *   <li>bad budgets get HTTP 400;</li>
 *   <li>a sampled query's late sub-queries keep running: its mature answer is formed off the query thread, and the
 *   measured quality (on the Broker's quality endpoint) matches the coverage;</li>
 *   <li>a memo of a few entries under sustained load evicts, counts its evictions and the mature runs they fail (on
 *   the endpoint and in the emitted metrics), stays within its bound, and the Broker answers every query;</li>
 *   <li>with replays on, the sampled queries skipped under load are queued, and once the load stops each is replayed
 *   or dropped, and the replays' qualities are listed as replayed.</li>
 * </ul>
 * Writes the straggler figures to {@code integration-tests/target/budgeted-queries.json}.
 */
@ExtendWith(DruidClusterExtension.class)
class BudgetedQueryIT
{
  private static final SyntheticDataset DATASET = GetafixItCluster.DATASET;
  private static final String BUDGET = QueryContextKeys.BUDGET_MS;
  private static final String MATURE = QueryContextKeys.MATURE;
  private static final String SPLIT = QueryContextKeys.SPLIT;
  /**
   * The split test. Its straggler, at 0.1 core, takes about 2.5 times as long as the unthrottled answer for its third
   * of the segments, so that a budget of {@link #SPLIT_BUDGET_OVER_UNTHROTTLED} times the unthrottled answer cuts it off
   * but leaves it time to finish some of its segments; and so that the segments it is working on when a query is cut
   * off end soon (at 0.02 core they held it for seconds after the learning queries). {@link #LEARNING_QUERIES}
   * budgeted queries, one at a time, teach the Broker that the straggler misses its deadlines (a Historical's share of
   * its deadlines is known from 5 sub-queries), while the other Historicals, alone on the machine's cores, use well
   * under the {@code LATE} share of theirs. Sent at once, the learning queries made every Historical late, so every
   * sub-query of the measured query was split, and the other Historicals' parts, queued behind each other, missed the
   * budget too (a CI run answered 62 segments split against 66 unsplit). The measured query's sub-query to the
   * straggler is split into at most {@link #SPLIT_PARTS} parts (each holds a Broker reader thread, of 32).
   */
  private static final double SPLIT_STRAGGLER_CORES = 0.1;
  private static final double SPLIT_BUDGET_OVER_UNTHROTTLED = 1.5;
  private static final int LEARNING_QUERIES = 8;
  private static final int SPLIT_PARTS = 8;
  private static final int STRAGGLER = GetafixItCluster.STRONG;
  private static final double STRAGGLER_CORES = 0.02;
  private static final long STRAGGLER_BUDGET_MS = 1500;
  private static final Duration STOCK_UNDER_STRAGGLER_TIMEOUT = Duration.ofSeconds(60);
  /**
   * Unthrottled runs of each query type before its straggler run. The first runs of a type compile its code paths on
   * the Historicals, and a 0.25-core node's JIT compilers take most of its quota for seconds (CI once cut groupBy and
   * scan at 1,500 ms with the 0.25-core node's whole third of the segments late); the last run is the reference.
   */
  private static final int UNTHROTTLED_RUNS = 3;
  /**
   * The straggler test's budget, as a multiple of the slowest of the last two unthrottled runs (never below {@link
   * #STRAGGLER_BUDGET_MS}): the unthrottled nodes' shares take about that long, while the straggler at {@link
   * #STRAGGLER_CORES} takes about 13 times as long (its third of the segments at 1/50 of its core, against a third on
   * the 0.25-core node, which bounds the unthrottled answer).
   */
  private static final double STRAGGLER_BUDGET_OVER_UNTHROTTLED = 4;
  /**
   * Before the tests, the straggler queries run unthrottled until the Historicals' JIT compilers have settled. On a
   * fresh cluster the compilers of the node throttled to {@link #STRAGGLER_CORES} would otherwise compile on its 1/50
   * core: a mature run then waited over its 60 s timeout for the straggler's share, which takes about 20 s once compiled.
   */
  private static final JitCompilerCpu.WarmUp JIT_WARM_UP = JitCompilerCpu.WarmUp.QUERIES;
  /**
   * Measurement 1: the response-time target, the margin the budget leaves below it, and the queries per side (each
   * stock one takes the whole target); the controller test's queries.
   */
  private static final long TARGET_RT_MS = 4000;
  private static final long TARGET_MARGIN_MS = 1500;
  private static final int MEASURED_QUERIES = 5;
  private static final int CONTROLLED_QUERIES = 8;
  /**
   * The memo under sustained load: a memo of 4 entries (each weighing at least 2 KiB, about the largest sub-answer of
   * the workload's queries), every budgeted query sampled, clients, how long they query, their budget, the mature
   * runs' timeout (short, so that the late sub-queries queued on the straggler end soon after the load), and their
   * limit.
   */
  private static final long MEMO_MAX_BYTES = 8192;
  private static final int MEMO_MAX_ENTRIES = 4;
  private static final int MEMO_CLIENTS = 4;
  private static final Duration MEMO_LOAD = Duration.ofSeconds(20);
  private static final long MEMO_BUDGET_MS = 500;
  private static final long MEMO_MATURE_TIMEOUT_MS = 15_000;
  /**
   * Mature runs in flight: each holds a connection to the straggler until its late sub-query ends; with the clients'
   * own sub-queries they stay below the launcher's {@code druid.broker.http.numConnections} (10), so that no online
   * sub-query waits for a connection (see {@code maxMatureRuns} in docs/configuration.md).
   */
  private static final int MEMO_MATURE_RUNS = 4;
  /**
   * Replays under load: one mature run at most, so that while it waits on the straggler every other sampled query is
   * skipped and, cut at its budget, queued; an expiration far beyond the test, so that no entry expires and every one
   * is replayed or dropped for room; a few clients, below the launcher's 10 connections per Historical, for a few
   * seconds, which queue more than enough; and the mature runs' timeout of the memo test, which is also each replay's.
   */
  private static final int REPLAY_MATURE_RUNS = 1;
  private static final int REPLAY_QUEUE_SIZE = 32;
  private static final String REPLAY_EXPIRATION = "PT10M";
  private static final int REPLAY_CLIENTS = 3;
  private static final Duration REPLAY_LOAD = Duration.ofSeconds(8);
  private static final long REPLAY_BUDGET_MS = 500;
  private static final long REPLAY_MATURE_TIMEOUT_MS = 15_000;
  /** The endpoint's figures of the replays, which must not move between two reads for the queue to count as drained. */
  private static final List<String> REPLAY_FIELDS = List.of(
      "replaysQueued",
      "replaysUnneeded",
      "replaysStarted",
      "replaysCompleted",
      "replaysFailed",
      "replaysDroppedByReason",
      "replayQueue",
      "replaysInFlight",
      "matureRunsInFlight"
  );
  private static final ObjectMapper MAPPER = new ObjectMapper();
  /** Only for the authorisation test, which sends its own header. */
  private static final HttpClient HTTP = HttpClient.newBuilder()
                                                   .version(HttpClient.Version.HTTP_1_1)
                                                   .connectTimeout(Duration.ofSeconds(5))
                                                   .build();
  private static final Map<String, Object> FIGURES = new LinkedHashMap<>();
  /** A budget an unthrottled query meets many times over, and a wait for a request's body three times as long. */
  private static final long SLOW_BODY_BUDGET_MS = 500;
  private static final Duration SLOW_BODY_DELAY = Duration.ofMillis(1500);

  private static LocalDruidCluster cluster;
  /** The hours (segments) that only the straggler serves, as placed in {@link #cluster()}. */
  private static final Set<Integer> STRAGGLER_HOURS = new TreeSet<>();

  @BeforeAll
  static void cluster() throws Exception
  {
    cluster = SharedDruidCluster.acquire(GetafixItCluster.config());
    SharedDruidCluster.ensureIngested(DATASET);
    final String straggler = cluster.historical(STRAGGLER).hostAndPort();
    final Map<String, Set<String>> holders = StragglerPlacement.oneReplicaEach(cluster, DATASET, STRAGGLER);
    holders.forEach((segment, holder) -> {
      if (holder.contains(straggler)) {
        STRAGGLER_HOURS.add(hourOf(segment));
      }
    });
    final int[] queries = {0};
    final JitCompilerCpu.Settling settling = cluster.warmUntilSettled(JIT_WARM_UP, window -> {
      final long end = System.nanoTime() + window.toNanos();
      while (System.nanoTime() < end) {
        for (String type : List.of("timeseries", "topN", "groupBy", "scan")) {
          nativeQuery(stragglerQuery(type));
          queries[0]++;
        }
      }
    });
    FIGURES.put("jitWarmUp", Map.of("seconds", settling.took().toSeconds(), "queries", queries[0], "jitShareLastWindow", settling.lastShare()));
  }

  /** The hour of a segment of {@link #DATASET}, from its id ({@code <dataSource>_<start>_<end>_<version>...}). */
  private static int hourOf(String segmentId)
  {
    final String start = segmentId.substring(DATASET.dataSource().length() + 1).split("_")[0];
    return (int) Duration.between(DATASET.start(), Instant.parse(start)).toHours();
  }

  /** The hour of a result row's timestamp (ISO or epoch milliseconds). */
  private static int hourOf(JsonNode timestamp)
  {
    final Instant time = timestamp.isNumber() ? Instant.ofEpochMilli(timestamp.asLong()) : Instant.parse(timestamp.asText());
    return (int) Duration.between(DATASET.start(), time).toHours();
  }

  /** Adjacent hours joined, as Druid condenses intervals: [from, to) hour pairs. */
  private static List<List<Integer>> condensed(Set<Integer> hours)
  {
    final List<List<Integer>> runs = new ArrayList<>();
    for (Integer hour : new TreeSet<>(hours)) {
      if (!runs.isEmpty() && runs.get(runs.size() - 1).get(1) == hour.intValue()) {
        runs.get(runs.size() - 1).set(1, hour + 1);
      } else {
        runs.add(new ArrayList<>(List.of(hour, hour + 1)));
      }
    }
    return runs;
  }

  @AfterAll
  static void writeFigures() throws IOException
  {
    if (cluster != null && !cluster.isClosed()) {
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
    }
    if (!FIGURES.isEmpty()) {
      GetafixItCluster.writeFigures("budgeted-queries.json", "budgeted queries", FIGURES);
    }
  }

  /**
   * The straggler tests' query: {@link #timeseries} plus a cardinality aggregator, which hashes every row. Once the
   * Historicals are warm (JIT, page cache, as they are after the ITs before this one) a count and two sums over a
   * 0.02-core node's third of the segments take about 0.2 s, too little to tell a straggler from noise; hashing every
   * row makes its share take seconds, while the 0.5- and 0.25-core nodes still answer well within the budget.
   */
  private static Map<String, Object> stragglerQuery()
  {
    return stragglerQuery("timeseries");
  }

  /**
   * The straggler query of a type, over the whole dataset: timeseries and groupBy (by country) by hour, topN
   * (countries by rows: 30 of them, so each segment's top 1000 is exact) over all of it, each with the cardinality
   * aggregator; scan, which has no aggregators, with a filter
   * that matches a string expression against every row (no index can answer it) and keeps about 2% of them.
   */
  private static Map<String, Object> stragglerQuery(String type)
  {
    final List<String> intervals = List.of(DATASET.interval());
    final NativeQuery query = switch (type) {
      case "timeseries" -> hashingEveryRow(NativeQuery.timeseries(DATASET.dataSource(), intervals).granularity("hour"));
      case "topN" -> hashingEveryRow(
          NativeQuery.topN(DATASET.dataSource(), intervals)
                     .granularity("all")
                     .dimension("country")
                     .metric("rows")
                     .threshold(10)
      );
      case "groupBy" -> hashingEveryRow(
          NativeQuery.groupBy(DATASET.dataSource(), intervals).granularity("hour").dimensions("country")
      );
      case "scan" -> NativeQuery.scan(DATASET.dataSource(), intervals)
                                .columns("__time", "page", "country", "user", "added")
                                .expressionFilter(
                                    "regexp_like(concat(page, country, user), 'c[0-9]+user-[0-9]*[05]$') && added < 100"
                                )
                                .resultFormat("compactedList");
      default -> throw new IllegalArgumentException(type);
    };
    return query.toMap();
  }

  private static Map<String, Object> timeseries(String interval)
  {
    return withAggregations(NativeQuery.timeseries(DATASET.dataSource(), List.of(interval)).granularity("hour"))
        .toMap();
  }

  private static Map<String, Object> topN()
  {
    return withAggregations(
        NativeQuery.topN(DATASET.dataSource(), List.of(DATASET.interval()))
                   .granularity("all")
                   .dimension("page")
                   .metric("rows")
                   .threshold(10)
    ).toMap();
  }

  private static Map<String, Object> groupBy()
  {
    return withAggregations(
        NativeQuery.groupBy(DATASET.dataSource(), List.of(DATASET.interval())).granularity("all").dimensions("country")
    ).toMap();
  }

  private static Map<String, Object> scan()
  {
    return NativeQuery.scan(DATASET.dataSource(), List.of(DATASET.interval(0, 3)))
                      .columns("__time", "page", "country", "added")
                      .selectorFilter("country", "c29")
                      .resultFormat("compactedList")
                      .toMap();
  }

  /** {@link #withAggregations} and the cardinality aggregator that makes the straggler slow. */
  private static NativeQuery hashingEveryRow(NativeQuery query)
  {
    return withAggregations(query).cardinality("distinctRows", List.of("page", "country", "user"), true);
  }

  /** The rows and their added sum: the aggregators every query here but the scan has. */
  private static NativeQuery withAggregations(NativeQuery query)
  {
    return query.count("rows").longSum("added", "added");
  }

  /**
   * {@code query} without a budget while the straggler is throttled: answered (200) once the straggler's share is done,
   * or failed by its own {@link #STOCK_UNDER_STRAGGLER_TIMEOUT} (504, stock Druid's answer to a query that late). A
   * node capped at 1/50 of a core answers its share of a scan of every row in anything from 20 s to minutes (its JVM's
   * own threads spend the same quota), so the time is bounded rather than waited out.
   */
  private static BrokerAnswer stockUnderStraggler(Map<String, Object> query) throws IOException, InterruptedException
  {
    final BrokerAnswer answer = new QualityClient(cluster.broker().uri()).post(
        "/druid/v2/",
        NativeQuery.withContext(query, Map.of("timeout", STOCK_UNDER_STRAGGLER_TIMEOUT.toMillis())),
        STOCK_UNDER_STRAGGLER_TIMEOUT.plusSeconds(30)
    );
    assertTrue(
        answer.status() == 200
        || (answer.status() == 504 && answer.millis() >= 0.9 * STOCK_UNDER_STRAGGLER_TIMEOUT.toMillis()),
        "stock Druid neither answered nor timed out: " + answer.status() + " " + answer.body()
    );
    return answer;
  }

  /** {@code query} with a budget, and without a mature run: the online path alone, whatever the sampling rate. */
  private static Map<String, Object> withBudget(Map<String, Object> query, Object budget)
  {
    return NativeQuery.withContext(query, Map.of(BUDGET, budget, MATURE, false));
  }

  /** As {@link #withBudget(Map, Object)}, the sub-query to a Historical expected late split into at most {@code parts}. */
  private static Map<String, Object> withBudget(Map<String, Object> query, Object budget, int parts)
  {
    return NativeQuery.withContext(query, Map.of(BUDGET, budget, MATURE, false, SPLIT, parts));
  }

  private static BrokerAnswer post(String path, Object body) throws IOException, InterruptedException
  {
    // The Broker's URI is resolved per call: controllerSetBudgetsAndAdmissionControlOnARestartedBroker restarts it.
    return new QualityClient(cluster.broker().uri()).post(path, body);
  }

  private static BrokerAnswer nativeQuery(Object query) throws IOException, InterruptedException
  {
    final BrokerAnswer answer = post("/druid/v2/", query);
    assertEquals(200, answer.status(), "native query failed: " + answer.body());
    return answer;
  }

  private static int segmentsIn(Map<String, Object> query)
  {
    // Hourly segments: one per hour of the query's interval.
    final String[] bounds = ((List<?>) query.get("intervals")).get(0).toString().split("/");
    return (int) Duration.between(java.time.Instant.parse(bounds[0]), java.time.Instant.parse(bounds[1])).toHours();
  }

  private static List<Map<String, Object>> everyQueryType()
  {
    return List.of(timeseries(DATASET.interval()), topN(), groupBy(), scan());
  }

  @Test
  void aBudgetThatIsMetAnswersExactlyWhatStockDruidAnswers() throws Exception
  {
    for (Map<String, Object> query : everyQueryType()) {
      final BrokerAnswer stock = nativeQuery(query);
      final BrokerAnswer budgeted = nativeQuery(withBudget(query, 60_000));
      final String type = query.get("queryType").toString();
      assertTrue(stock.coverage().isMissingNode(), type + ": a query without a budget states no coverage");
      assertEquals(canonical(type, stock.body()), canonical(type, budgeted.body()), type + ": budgeted answer differs");
      final JsonNode coverage = budgeted.coverage();
      assertFalse(coverage.path("timedOut").asBoolean(true), type + ": " + coverage);
      assertEquals(segmentsIn(query), coverage.path("total").asInt(), type + ": " + coverage);
      assertEquals(segmentsIn(query), coverage.path("answered").asInt(), type + ": " + coverage);
      assertEquals(0, coverage.path("missingIntervals").size(), type + ": " + coverage);
    }
  }

  /**
   * A budget runs from the request's arrival at the Broker, not from when the Broker has read the query: a client that
   * sends its query's body {@link #SLOW_BODY_DELAY} after the request's headers has spent its budget before the Broker
   * can plan the query, and gets an answer with every segment late; the same query sent at once is answered whole.
   */
  @Test
  void aBudgetRunsFromTheRequestsArrivalNotFromWhenItsQueryIsRead() throws Exception
  {
    final Map<String, Object> query = withBudget(timeseries(DATASET.interval()), SLOW_BODY_BUDGET_MS);
    final JsonNode atOnce = nativeQuery(query).coverage();
    assertFalse(atOnce.path("timedOut").asBoolean(true), "sent at once: " + atOnce);
    final HttpResponse<String> slow = HTTP.send(
        HttpRequest.newBuilder(cluster.broker().uri().resolve("/druid/v2/"))
                   .timeout(Duration.ofSeconds(60))
                   .header("Content-Type", "application/json")
                   .POST(sentAfter(MAPPER.writeValueAsBytes(query), SLOW_BODY_DELAY))
                   .build(),
        HttpResponse.BodyHandlers.ofString()
    );
    assertEquals(200, slow.statusCode(), slow.body());
    final JsonNode coverage = MAPPER.readTree(slow.headers().firstValue(QualityClient.RESPONSE_CONTEXT_HEADER).orElse("{}"))
                                    .path(QueryContextKeys.COVERAGE);
    assertTrue(coverage.path("timedOut").asBoolean(false), "the body came after the budget: " + coverage);
    assertEquals(0, coverage.path("answered").asInt(-1), coverage.toString());
    assertEquals(segmentsIn(query), coverage.path("total").asInt(), coverage.toString());
  }

  /** {@code body} as a request body that the client starts sending {@code delay} after the request's headers. */
  private static HttpRequest.BodyPublisher sentAfter(byte[] body, Duration delay)
  {
    final Flow.Publisher<ByteBuffer> late = subscriber -> subscriber.onSubscribe(new Flow.Subscription()
    {
      private final AtomicBoolean sent = new AtomicBoolean();

      @Override
      public void request(long n)
      {
        if (n > 0 && sent.compareAndSet(false, true)) {
          CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
            subscriber.onNext(ByteBuffer.wrap(body));
            subscriber.onComplete();
          });
        }
      }

      @Override
      public void cancel()
      {
      }
    });
    return HttpRequest.BodyPublishers.fromPublisher(late, body.length);
  }

  /** Scan batches come in whichever order the Historicals answer: compare their rows as a sorted list. */
  private static JsonNode canonical(String type, JsonNode body)
  {
    if (!"scan".equals(type)) {
      return body;
    }
    final List<String> rows = new ArrayList<>();
    body.forEach(batch -> batch.path("events").forEach(row -> rows.add(row.toString())));
    rows.sort(String::compareTo);
    return MAPPER.valueToTree(rows);
  }

  @Test
  void aBudgetThatCannotBeMetStillAnswersAndSaysSo() throws Exception
  {
    for (Map<String, Object> query : everyQueryType()) {
      final String type = query.get("queryType").toString();
      final BrokerAnswer answer = nativeQuery(withBudget(query, 1));
      final JsonNode coverage = answer.coverage();
      assertTrue(coverage.path("timedOut").asBoolean(false), type + ": " + coverage);
      assertEquals(segmentsIn(query), coverage.path("total").asInt(), type + ": " + coverage);
      assertTrue(coverage.path("late").asInt() > 0, type + ": " + coverage);
      assertTrue(coverage.path("missingIntervals").size() > 0, type + ": " + coverage);
    }
  }

  /**
   * Each query type under a straggler: the budgeted answer comes about when the budget ends, its coverage is exactly
   * the straggler's segments late and every other segment answered, and its rows are exactly the unthrottled answer's
   * rows of the answered hours (for topN: the unthrottled topN over the answered hours).
   */
  @ParameterizedTest
  @ValueSource(strings = {"timeseries", "topN", "groupBy", "scan"})
  void aStragglerIsCutOffAtTheBudgetAndTheAnswerCoversTheRest(String type) throws Exception
  {
    final Map<String, Object> query = stragglerQuery(type);
    final List<List<Integer>> missingHours = condensed(STRAGGLER_HOURS);
    final Set<Integer> allHours = new TreeSet<>();
    for (int h = 0; h < DATASET.hours(); h++) {
      allHours.add(h);
    }
    final Set<Integer> answeredHours = new TreeSet<>(allHours);
    answeredHours.removeAll(STRAGGLER_HOURS);
    final Unthrottled runs = unthrottled(query);
    final BrokerAnswer unthrottled = runs.last();
    final List<Long> unthrottledMillis = runs.millis();
    final long budgetMs = Math.max(STRAGGLER_BUDGET_MS, Math.round(STRAGGLER_BUDGET_OVER_UNTHROTTLED * runs.slowestWarm()));
    final BrokerAnswer reference;
    if ("topN".equals(type)) {
      final Map<String, Object> overAnswered = new HashMap<>(query);
      overAnswered.put("intervals", condensed(answeredHours).stream().map(r -> DATASET.interval(r.get(0), r.get(1))).toList());
      reference = nativeQuery(overAnswered);
    } else {
      reference = unthrottled;
    }
    cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
    try {
      final BrokerAnswer stock = "timeseries".equals(type) ? stockUnderStraggler(query) : null;
      // Whole, never split: a straggler's sub-query split into parts would answer for the parts it finishes.
      final BrokerAnswer budgeted = nativeQuery(withBudget(query, budgetMs, 1));
      final JsonNode coverage = budgeted.coverage();
      final Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("unthrottledStockMs", unthrottledMillis);
      figures.put("budgetMs", budgetMs);
      figures.put("stragglerBudgetedMs", budgeted.millis());
      figures.put("coverage", coverage);
      FIGURES.put("straggler-" + type, figures);
      final String what = type + " (" + budgeted.millis() + " ms at a " + budgetMs + " ms budget, unthrottled " + unthrottledMillis
                          + " ms, straggler hours " + STRAGGLER_HOURS + "): " + coverage;

      if (stock != null) {
        FIGURES.put("stragglerCores", STRAGGLER_CORES);
        FIGURES.put("budgetMs", budgetMs);
        FIGURES.put("unthrottledStockMs", unthrottled.millis());
        FIGURES.put("stragglerStockMs", stock.millis());
        FIGURES.put("stragglerBudgetedMs", budgeted.millis());
        FIGURES.put("budgetedOverBudget", budgeted.millis() / (double) budgetMs);
        FIGURES.put("budgetedOverStock", budgeted.millis() / (double) stock.millis());
        FIGURES.put("coverage", coverage);
        assertTrue(stock.millis() > budgetMs, "the straggler is not slow enough to test: " + stock.millis() + " ms");
        if (stock.status() == 200) {
          assertEquals(unthrottled.body(), stock.body(), "stock Druid's answer under the straggler");
        }
      }
      assertTrue(coverage.path("timedOut").asBoolean(false), "the straggler was not cut off: " + what);
      assertEquals(DATASET.hours(), coverage.path("total").asInt(), what);
      assertEquals(answeredHours.size(), coverage.path("answered").asInt(), "answered: every segment but the straggler's: " + what);
      assertEquals(STRAGGLER_HOURS.size(), coverage.path("late").asInt(), what);
      assertTrue(budgeted.millis() < budgetMs + 2_000, "answered after the budget: " + what);
      // The late segments' intervals, condensed and capped as the coverage documents.
      final List<String> expectedMissing = missingHours.stream()
                                                       .limit(32)
                                                       .map(r -> normalised(DATASET.interval(r.get(0), r.get(1))))
                                                       .toList();
      final List<String> missing = new ArrayList<>();
      coverage.path("missingIntervals").forEach(interval -> missing.add(normalised(interval.asText())));
      assertEquals(expectedMissing, missing, "missing intervals are the straggler's segments: " + what);
      assertEquals(missingHours.size() > 32, coverage.path("missingIntervalsTruncated").asBoolean(), what);

      // The partial answer's rows (all of them) are exactly the reference rows of the answered hours.
      final JsonNode expected = switch (type) {
        case "topN" -> reference.body().path(0).path("result");
        case "scan" -> MAPPER.valueToTree(scanRows(reference.body(), answeredHours));
        default -> MAPPER.valueToTree(rowsOfHours(reference.body(), answeredHours));
      };
      final JsonNode actual = switch (type) {
        case "topN" -> budgeted.body().path(0).path("result");
        case "scan" -> MAPPER.valueToTree(scanRows(budgeted.body(), allHours));
        default -> MAPPER.valueToTree(rowsOfHours(budgeted.body(), allHours));
      };
      assertTrue(expected.size() > 0, "nothing to compare: " + reference.body());
      assertEquals(expected, actual, "the partial answer vs the reference over the answered hours: " + what);
    }
    finally {
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
    }
  }

  /**
   * Waits until no Historical completes a segment scan for a second: the queries before have left their queues. A
   * sub-query the Broker gave up at its deadline keeps its Historical busy until it ends, and a query sent right after
   * waits behind it; two queries compared must both start on idle Historicals.
   */
  private static void awaitHistoricalsIdle() throws TimeoutException
  {
    final GetafixClient stats = new GetafixClient(cluster);
    final Map<String, Long> scans = new HashMap<>();
    Waits.await("the Historicals to finish the queries before", Duration.ofMinutes(2), Duration.ofSeconds(1), () -> {
      boolean idle = true;
      for (LocalNode historical : cluster.historicals()) {
        final long now = stats.historicalStats(historical).path("segmentScans").asLong();
        final Long before = scans.put(historical.name(), now);
        idle &= before != null && before == now;
      }
      return idle;
    }, () -> "segment scans completed: " + scans);
  }

  /**
   * Partial answers by segment, not by Historical: once the Broker has seen the straggler miss its deadlines, a budgeted
   * query's sub-query to it goes as parts of consecutive segments, and the parts it finishes in time count. The answer
   * then covers more segments than the same query unsplit, and each hour it has is exactly the unthrottled answer's.
   */
  @Test
  void aStragglersPartsFinishedInTimeCountOnceItsSubQueriesAreSplit() throws Exception
  {
    final Map<String, Object> query = stragglerQuery();
    final Unthrottled runs = unthrottled(query);
    final BrokerAnswer unthrottled = runs.last();
    final List<Long> unthrottledMillis = runs.millis();
    final long budgetMs = Math.round(SPLIT_BUDGET_OVER_UNTHROTTLED * runs.slowestWarm());
    cluster.setCpuQuota(STRAGGLER, SPLIT_STRAGGLER_CORES);
    try {
      final Map<String, Object> learning = withBudget(query, budgetMs, 1);
      for (int i = 0; i < LEARNING_QUERIES; i++) {
        nativeQuery(learning);
      }
      awaitHistoricalsIdle();
      final BrokerAnswer whole = nativeQuery(withBudget(query, budgetMs, 1));
      awaitHistoricalsIdle();
      final long splitBefore = qualityState().path("subQueriesSplit").asLong();
      final BrokerAnswer split = nativeQuery(withBudget(query, budgetMs, SPLIT_PARTS));
      final JsonNode coverage = split.coverage();
      final String what = "split into " + SPLIT_PARTS + " (" + split.millis() + " ms at a " + budgetMs + " ms budget, "
                          + "unthrottled " + unthrottledMillis + " ms; unsplit " + whole.coverage() + "): " + coverage;
      assertEquals(1, qualityState().path("subQueriesSplit").asLong() - splitBefore,
                   "the Broker split other than the straggler's sub-query of the measured query: " + what);
      FIGURES.put("split", Map.of(
          "budgetMs", budgetMs,
          "stragglerCores", SPLIT_STRAGGLER_CORES,
          "parts", SPLIT_PARTS,
          "unsplitAnswered", whole.coverage().path("answered").asInt(),
          "splitAnswered", coverage.path("answered").asInt(),
          "splitMs", split.millis()
      ));
      assertTrue(whole.coverage().path("timedOut").asBoolean(false), "the straggler was not cut off: " + what);
      assertEquals(DATASET.hours(), coverage.path("total").asInt(), what);
      assertTrue(split.millis() < budgetMs + 2_000, "answered after the budget: " + what);

      final Set<Integer> answeredHours = new TreeSet<>();
      split.body().forEach(row -> {
        if (row.path("result").path("rows").asLong() > 0) {
          answeredHours.add(hourOf(row.path("timestamp")));
        }
      });
      assertEquals(coverage.path("answered").asInt(), answeredHours.size(), "an hour per answered segment: " + what);
      // The straggler's parts in time count: the split answer has hours the unsplit one lost whole with the straggler's
      // sub-query. Not a count of all answered segments: the 0.25-core Historical's share takes about 2/3 of this
      // budget, so whether its sub-query makes the deadline varies from one query to the next (a suite run: 66
      // answered unsplit, 39 split, another Historical's segments late too).
      final Set<Integer> lostUnsplit = new TreeSet<>();
      whole.coverage().path("missingIntervals").forEach(interval -> lostUnsplit.addAll(hoursOf(interval.asText())));
      assertTrue(
          answeredHours.stream().anyMatch(lostUnsplit::contains),
          "split, no segment answered in time that the unsplit query lost: " + what
      );
      assertEquals(
          MAPPER.valueToTree(rowsOfHours(unthrottled.body(), answeredHours)),
          MAPPER.valueToTree(rowsOfHours(split.body(), answeredHours)),
          "each answered hour exactly as unthrottled: " + what
      );
    }
    finally {
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
    }
  }

  /** {@link #UNTHROTTLED_RUNS} answers to {@code query} with no straggler: their times, and the last as the reference. */
  private static Unthrottled unthrottled(Map<String, Object> query) throws IOException, InterruptedException
  {
    final List<Long> millis = new ArrayList<>();
    BrokerAnswer last = null;
    for (int run = 0; run < UNTHROTTLED_RUNS; run++) {
      last = nativeQuery(query);
      millis.add(last.millis());
    }
    return new Unthrottled(last, millis);
  }

  /** Unthrottled answers to one query: the last of them, and how long each took. */
  private record Unthrottled(BrokerAnswer last, List<Long> millis)
  {
    /** The slower of the last two: the first runs of a type compile its code paths. */
    long slowestWarm()
    {
      return Collections.max(millis.subList(millis.size() - 2, millis.size()));
    }
  }

  /** The hours an interval of whole hours covers. */
  private static List<Integer> hoursOf(String interval)
  {
    final String[] bounds = interval.split("/");
    final Instant start = Instant.parse(bounds[0]);
    final int first = (int) Duration.between(DATASET.start(), start).toHours();
    final int hours = (int) Duration.between(start, Instant.parse(bounds[1])).toHours();
    final List<Integer> covered = new ArrayList<>();
    for (int hour = first; hour < first + hours; hour++) {
      covered.add(hour);
    }
    return covered;
  }

  private static String normalised(String interval)
  {
    final String[] bounds = interval.split("/");
    return Instant.parse(bounds[0]) + "/" + Instant.parse(bounds[1]);
  }

  /**
   * The rows (timeseries buckets, groupBy rows) of {@code hours}, in answer order, without empty timeseries buckets
   * (which Druid may zero-fill where no segment answered).
   */
  private static List<JsonNode> rowsOfHours(JsonNode body, Set<Integer> hours)
  {
    final List<JsonNode> rows = new ArrayList<>();
    for (JsonNode row : body) {
      final boolean zeroFilled = row.has("result") && row.path("result").path("rows").asLong() == 0;
      if (!zeroFilled && hours.contains(hourOf(row.path("timestamp")))) {
        rows.add(row);
      }
    }
    return rows;
  }

  /** The scan rows (compacted lists, {@code __time} first) of {@code hours}, sorted: batches come in any order. */
  private static List<String> scanRows(JsonNode body, Set<Integer> hours)
  {
    final List<String> rows = new ArrayList<>();
    body.forEach(batch -> batch.path("events").forEach(row -> {
      if (hours.contains(hourOf(row.path(0)))) {
        rows.add(row.toString());
      }
    }));
    rows.sort(String::compareTo);
    return rows;
  }

  @Test
  void badBudgetsAreRejectedWith400() throws Exception
  {
    for (Object bad : List.of(-5, 0, "NaN", "Infinity", "abc", "", true, 1e12)) {
      final BrokerAnswer nativeAnswer = post("/druid/v2/", withBudget(timeseries(DATASET.interval()), bad));
      assertEquals(400, nativeAnswer.status(), "native, budget " + bad + ": " + nativeAnswer.body());
      assertTrue(nativeAnswer.body().toString().contains(BUDGET), nativeAnswer.body().toString());
      final BrokerAnswer sql = post("/druid/v2/sql/", Map.of(
          "query", "SELECT COUNT(*) FROM " + DATASET.dataSource(),
          "context", Map.of(BUDGET, bad)
      ));
      assertEquals(400, sql.status(), "SQL, budget " + bad + ": " + sql.body());
    }
    final BrokerAnswer badMature = post("/druid/v2/", NativeQuery.withContext(timeseries(DATASET.interval()), Map.of(BUDGET, 100, MATURE, 5)));
    assertEquals(400, badMature.status(), "getafixMature 5: " + badMature.body());
  }

  @Test
  void sqlGetsTheSameBudgetsAndCoverage() throws Exception
  {
    final String sql = "SELECT country, COUNT(*) AS \"rows\" FROM " + DATASET.dataSource() + " GROUP BY country ORDER BY country";
    final BrokerAnswer stock = post("/druid/v2/sql/", Map.of("query", sql));
    final BrokerAnswer met = post("/druid/v2/sql/", Map.of("query", sql, "context", Map.of(BUDGET, 60_000)));
    final BrokerAnswer cut = post("/druid/v2/sql/", Map.of("query", sql, "context", Map.of(BUDGET, 1)));
    assertEquals(200, met.status(), met.body().toString());
    assertEquals(stock.body(), met.body());
    assertEquals(DATASET.hours(), met.coverage().path("answered").asInt(), met.context().toString());
    assertFalse(met.coverage().path("timedOut").asBoolean(true), met.context().toString());
    assertEquals(200, cut.status(), cut.body().toString());
    assertTrue(cut.coverage().path("timedOut").asBoolean(false), cut.context().toString());
    assertEquals(DATASET.hours(), cut.coverage().path("total").asInt(), cut.context().toString());
  }

  @Test
  void aSampledQueryGetsItsMatureAnswerAndItsQualityMeasured() throws Exception
  {
    // Full coverage: the mature answer, merged by the Broker from the memoised sub-answers, is the online answer.
    for (Map<String, Object> typed : everyQueryType()) {
      final String id = "it-mature-whole-" + typed.get("queryType");
      final BrokerAnswer whole = nativeQuery(NativeQuery.withContext(typed, Map.of(BUDGET, 60_000, MATURE, true, "queryId", id)));
      assertFalse(whole.coverage().path("timedOut").asBoolean(true), whole.context().toString());
      final JsonNode wholeRun = awaitMatureRun(id);
      assertEquals(1.0, wholeRun.path("quality").path("quality").asDouble(), wholeRun.toString());
    }

    final Map<String, Object> query = stragglerQuery();
    cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
    try {
      final BrokerAnswer cut = nativeQuery(NativeQuery.withContext(query, Map.of(BUDGET, STRAGGLER_BUDGET_MS, MATURE, true, "queryId", "it-mature-cut")));
      final JsonNode coverage = cut.coverage();
      assertTrue(coverage.path("timedOut").asBoolean(false), "the straggler was not cut off: " + coverage);
      final JsonNode run = awaitMatureRun("it-mature-cut");
      final JsonNode quality = run.path("quality");
      FIGURES.put("matureRun", run);
      // The late sub-query kept running under its own id: the mature answer has every hour, the online one the
      // answered hours, each of them exact. A missing hour counts as wrong values, so the timeseries quality, as its
      // recall, is the answered share.
      final double answeredShare = coverage.path("answered").asInt() / (double) DATASET.hours();
      assertEquals(DATASET.hours(), quality.path("matureRows").asInt(), run.toString());
      assertEquals(coverage.path("answered").asInt(), quality.path("onlineRows").asInt(), run.toString());
      assertEquals(answeredShare, quality.path("rowRecall").asDouble(), 1e-9, run.toString());
      assertEquals(answeredShare, quality.path("quality").asDouble(), 1e-9, run.toString());
      assertTrue(answeredShare < 1.0, run.toString());
    }
    finally {
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
    }
    final JsonNode state = qualityState();
    FIGURES.put("qualityState", state.deepCopy());
    assertEquals(0, state.path("matureRunsFailed").asLong(), state.toString());
    assertTrue(state.path("matureRunsCompleted").asLong() >= everyQueryType().size() + 1, state.toString());
  }

  /**
   * With {@code profileFile} set, the quality profiles learned from mature runs outlive the Broker: a run measured
   * before a restart (which stops the Broker with SIGTERM, so its lifecycle saves the file) is read back at start.
   */
  @Test
  void learnedQualityProfilesOutliveABrokerRestart() throws Exception
  {
    final Path profileFile = Files.createTempDirectory("getafix-it-profiles").resolve("quality-profiles.json");
    final Map<String, String> keptProfiles = Map.of("druid.getafix.quality.profileFile", profileFile.toString());
    cluster.restartBroker(keptProfiles, Duration.ofMinutes(10));
    try {
      final String id = "it-profile-learned";
      nativeQuery(NativeQuery.withContext(stragglerQuery(), Map.of(BUDGET, 60_000, MATURE, true, "queryId", id)));
      awaitMatureRun(id);
      final String queryClass = DATASET.dataSource() + "/timeseries";
      Waits.await("the measured run to reach the profile of " + queryClass, Duration.ofMinutes(1),
                  () -> qualityState().path("qualityProfiles").has(queryClass));
      assertFalse(qualityState().path("qualityProfilesRestoredFrom").has("file"), "nothing was saved before this Broker");

      cluster.restartBroker(keptProfiles, Duration.ofMinutes(10));
      final JsonNode state = qualityState();
      FIGURES.put("qualityProfilesRestored", state.path("qualityProfilesRestoredFrom"));
      assertTrue(Files.isRegularFile(profileFile), "the Broker's stop wrote no " + profileFile);
      assertEquals(profileFile.toString(), state.path("qualityProfilesRestoredFrom").path("file").asText(), state.toString());
      assertTrue(state.path("qualityProfilesRestoredFrom").path("queryClasses").asInt() >= 1, state.toString());
      assertTrue(state.path("qualityProfiles").has(queryClass), "the restored profiles lack " + queryClass + ": " + state);
    }
    finally {
      cluster.restartBroker(Map.of(), Duration.ofMinutes(10));
    }
  }

  /**
   * Measurement 1: one Historical throttled to a straggler, a fixed response-time target T. Stock Druid with
   * {@code timeout} = T fails the queries the straggler delays past T; budgeted with T minus a margin (for the Broker's
   * merge on a loaded machine), every query answers within T, and its mature run measures what the cut cost.
   * Each budgeted query's mature run is awaited before the next query, so that late sub-queries do not pile up on the
   * straggler (the Broker re-executes when idle, Ubora §1.7).
   */
  @Test
  void measurement1StockTimeoutFailsWhereABudgetAnswersWithinTheTarget() throws Exception
  {
    final Map<String, Object> query = stragglerQuery();
    final List<Double> qualities = new ArrayList<>();
    int budgetedWithinTarget = 0;
    int stockFailed = 0;
    final List<Long> budgetedMillis = new ArrayList<>();
    final List<Long> stockMillis = new ArrayList<>();
    for (int i = 0; i < MEASURED_QUERIES; i++) {
      final String id = "it-m1-budgeted-" + i;
      cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
      try {
        final BrokerAnswer budgeted = post("/druid/v2/", NativeQuery.withContext(query, Map.of(
            BUDGET, TARGET_RT_MS - TARGET_MARGIN_MS,
            MATURE, true,
            "queryId", id
        )));
        budgetedMillis.add(budgeted.millis());
        if (budgeted.status() == 200 && budgeted.millis() <= TARGET_RT_MS) {
          budgetedWithinTarget++;
        }
      }
      finally {
        cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
      }
      // The mature run finishes the straggler's late sub-query at its own quota (at 0.02 core it would take about
      // 20 s); what it measures, the online answer's quality, does not depend on when it finishes.
      qualities.add(awaitMatureRun(id).path("quality").path("quality").asDouble(Double.NaN));
    }
    cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
    try {
      for (int i = 0; i < MEASURED_QUERIES; i++) {
        final BrokerAnswer stock = post("/druid/v2/", NativeQuery.withContext(query, Map.of("timeout", TARGET_RT_MS, "queryId", "it-m1-stock-" + i)));
        stockMillis.add(stock.millis());
        if (stock.status() != 200) {
          stockFailed++;
        }
      }
    }
    finally {
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
    }
    final List<Double> sorted = new ArrayList<>(qualities);
    sorted.sort(Double::compare);
    final double meanQuality = sorted.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    final double p10Quality = sorted.get((int) Math.floor(0.1 * (sorted.size() - 1)));
    final Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("stragglerCores", STRAGGLER_CORES);
    figures.put("targetMs", TARGET_RT_MS);
    figures.put("budgetMs", TARGET_RT_MS - TARGET_MARGIN_MS);
    figures.put("queries", MEASURED_QUERIES);
    figures.put("stockFailedFraction", stockFailed / (double) MEASURED_QUERIES);
    figures.put("budgetedWithinTargetFraction", budgetedWithinTarget / (double) MEASURED_QUERIES);
    figures.put("budgetedMillis", budgetedMillis);
    figures.put("stockMillis", stockMillis);
    figures.put("matureQualities", qualities);
    figures.put("meanQuality", meanQuality);
    figures.put("p10Quality", p10Quality);
    FIGURES.put("measurement1", figures);

    assertTrue(stockFailed > 0, "the straggler did not delay stock Druid past the target: " + figures);
    assertEquals(MEASURED_QUERIES, budgetedWithinTarget, "budgeted queries answered after the target: " + figures);
    assertTrue(qualities.stream().allMatch(q -> q > 0 && q <= 1), "a mature run measured no quality: " + figures);
  }

  /**
   * Measurement 2: what a mature run with memoisation costs against a full re-execution of the same query.
   * The mature run only finishes the late sub-query (the straggler's); the memo holds the rest. Its Historical CPU
   * is the straggler's, from the query's start until the mature run is measured (its whole late sub-query, so at most
   * the mature run's cost); the re-execution's is every Historical's during the same query run again without budget.
   * The straggler is throttled until the online answer only; both then run at its own cap. CPU time is that of the
   * Historicals' query processing threads, where segments are scanned: the whole process' time also holds what a node
   * throttled to 1/50 of a core catches up on once its quota returns (compilers, collector, announcements), and that
   * alone can exceed the whole re-execution's cost.
   */
  @Test
  void measurement2AMatureRunCostsLessThanAFullReExecution() throws Exception
  {
    final Map<String, Object> query = stragglerQuery();
    final Map<String, Object> figures = new LinkedHashMap<>();
    assertTrue(ThreadCpu.ofThisMachine().isAvailable(), "this measurement reads the Historicals' threads in /proc");
    final long stragglerBefore = cluster.historical(STRAGGLER).processingCpuNanos();
    final BrokerAnswer online;
    cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
    try {
      online = nativeQuery(NativeQuery.withContext(query, Map.of(BUDGET, STRAGGLER_BUDGET_MS, MATURE, true, "queryId", "it-m2-mature")));
    }
    finally {
      // Throttled only until the online answer: a node at 1/50 of a core finishes its late work in anything from 30 s
      // to minutes (its JVM's own threads spend the same quota), and the cost compared is CPU time, not wall time.
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
    }
    assertTrue(online.coverage().path("timedOut").asBoolean(false), "the straggler was not cut off: " + online.context());
    final JsonNode run = awaitMatureRun("it-m2-mature");
    final long matureCpu = cluster.historical(STRAGGLER).processingCpuNanos() - stragglerBefore;
    final long matureMillis = run.path("matureMillis").asLong();

    final long[] before = new long[cluster.historicals().size()];
    for (int h = 0; h < before.length; h++) {
      before[h] = cluster.historical(h).processingCpuNanos();
    }
    final BrokerAnswer full = nativeQuery(NativeQuery.withContext(query, Map.of("queryId", "it-m2-full")));
    long fullCpu = 0;
    for (int h = 0; h < before.length; h++) {
      fullCpu += cluster.historical(h).processingCpuNanos() - before[h];
    }
    figures.put("stragglerCores", STRAGGLER_CORES);
    figures.put("budgetMs", STRAGGLER_BUDGET_MS);
    figures.put("answeredSegments", online.coverage().path("answered").asInt());
    figures.put("lateSegments", online.coverage().path("late").asInt());
    figures.put("matureCpuMs", matureCpu / 1e6);
    figures.put("fullReExecutionCpuMs", fullCpu / 1e6);
    figures.put("cpuRatioFullOverMature", fullCpu / (double) Math.max(1, matureCpu));
    figures.put("matureMillisFromStart", matureMillis);
    figures.put("matureMillisAfterOnline", matureMillis - online.millis());
    figures.put("fullReExecutionMillis", full.millis());
    figures.put("cpu", "query processing threads");
    figures.put("cgroups", cluster.cgroupsEnabled());
    FIGURES.put("measurement2", figures);
    assertTrue(fullCpu > matureCpu, "the mature run cost more Historical CPU than a full re-execution: " + figures);
  }

  /** The shortest admission window, so that the cut queries of the admission test fill one of their own. */
  private static final long ADMISSION_WINDOW_MS = 100;

  /**
   * Controller-set budgets and admission control on a Broker restarted with them (restored afterwards): under a
   * straggler, queries on the controlled datasource that ask for no budget get one from the controller (their
   * response states its coverage, and none waits for the straggler), their response times move the budget, and, with the
   * timeout-rate-guided admission controller watching those high-priority queries time out, low-priority queries are
   * shed with HTTP 429.
   */
  @Test
  void controllerSetBudgetsAndAdmissionControlOnARestartedBroker() throws Exception
  {
    final Map<String, Object> query = stragglerQuery();
    final Map<String, Object> figures = new LinkedHashMap<>();
    cluster.restartBroker(Map.of(
        "druid.getafix.quality.controlledDataSources", "[\"" + DATASET.dataSource() + "\"]",
        "druid.getafix.quality.targetResponseTimeMs", String.valueOf(TARGET_RT_MS),
        "druid.getafix.quality.matureSampleRate", "0",
        "druid.getafix.quality.admission", "TIMEOUT_RATE",
        "druid.getafix.quality.admissionWindowMs", String.valueOf(ADMISSION_WINDOW_MS)
    ), Duration.ofMinutes(10));
    cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
    try {
      final List<Long> millis = new ArrayList<>();
      for (int i = 0; i < CONTROLLED_QUERIES; i++) {
        final BrokerAnswer answer = nativeQuery(NativeQuery.withContext(query, Map.of("queryId", "it-controlled-" + i)));
        assertFalse(answer.coverage().isMissingNode(), "not budgeted by the controller: " + answer.context());
        millis.add(answer.millis());
      }
      final JsonNode state = qualityState();
      final JsonNode controller = state.path("budgetControl").path(DATASET.dataSource());
      figures.put("controlledMillis", millis);
      figures.put("budgetControl", controller);
      assertTrue(controller.path("responseTimeEstimateMs").isNumber(), "no response time fed back: " + state);
      assertTrue(controller.path("budgetMs").asDouble() != TARGET_RT_MS, "the budget never moved from the target: " + controller);
      // The controller's budget (starting at the target) cuts the straggler off: no answer waits for it (stock
      // Druid's straggler query takes several times the target here, see stragglerStockMs).
      for (long answered : millis) {
        assertTrue(answered < TARGET_RT_MS + 2_000, "a controlled query waited for the straggler: " + millis);
      }

      // High-priority queries whose 1 ms budget cuts them short: the timeout-rate signal falls to 0, far below the
      // target 0.9, and the controller stops admitting low-priority queries (the controlled queries above may or may
      // not have been cut, depending on where the Broker routed them).
      for (int i = 0; i < 4; i++) {
        final BrokerAnswer cut = nativeQuery(withBudget(query, 1));
        assertTrue(cut.coverage().path("timedOut").asBoolean(false), cut.context().toString());
      }
      // The controller acts on a window when the first request after its end arrives, so a low-priority query sent
      // within the cut queries' window may still be admitted; one sent after it must be shed.
      final int[] lowPriority = {0};
      final BrokerAnswer[] last = {null};
      Waits.await("a low-priority query to be shed", Duration.ofSeconds(30), Duration.ofMillis(ADMISSION_WINDOW_MS), () -> {
        last[0] = post("/druid/v2/", NativeQuery.withContext(query, Map.of("priority", -1, "queryId", "it-low-priority-" + lowPriority[0]++)));
        return last[0].status() == 429;
      }, () -> "; the last answer " + last[0].status() + " " + last[0].body());
      final BrokerAnswer shed = last[0];
      figures.put("lowPriorityStatus", shed.status());
      figures.put("lowPriorityQueriesUntilShed", lowPriority[0]);
      figures.put("admission", qualityState().path("admission"));
      assertEquals(429, shed.status(), shed.body().toString());
      assertTrue(shed.body().toString().contains("admission control"), shed.body().toString());
      assertTrue(qualityState().path("admission").path("shedQueries").asLong() >= 1, figures.toString());
    }
    finally {
      FIGURES.put("controllerAndAdmission", figures);
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
      cluster.restartBroker(Map.of(), Duration.ofMinutes(10));
    }
  }

  /**
   * A memory-bounded memo under sustained load. The Broker is restarted (and restored afterwards) with a
   * memo of a few entries, every budgeted query sampled, and its metrics sent to a {@link MetricsReceiver}; with the
   * straggler throttled, mature runs stay pending on it while several clients keep sending the workload's queries,
   * so the memo must evict. Every query is answered (HTTP 200, with its coverage), the Broker lives on without an
   * OutOfMemoryError, the evictions and the mature runs they fail are counted on the quality endpoint and in the
   * emitted metrics, and the memo's weighed size, as the endpoint and the metrics report it, never exceeds its bound.
   */
  @Test
  void aTinyMemoUnderSustainedLoadEvictsCountsTheFailedRunsAndAnswersEveryQuery() throws Exception
  {
    final Map<String, Object> figures = new LinkedHashMap<>();
    final long brokerLogBefore = Files.size(cluster.broker().logFile());
    try (MetricsReceiver metrics = MetricsReceiver.start()) {
      final Map<String, String> broker = new HashMap<>(metrics.emitterProperties(List.of("getafix", "getafixRouting")));
      broker.put("druid.getafix.quality.matureSampleRate", "1.0");
      broker.put("druid.getafix.quality.memoMaxBytes", String.valueOf(MEMO_MAX_BYTES));
      broker.put("druid.getafix.quality.memoMaxEntries", String.valueOf(MEMO_MAX_ENTRIES));
      broker.put("druid.getafix.quality.matureTimeoutMs", String.valueOf(MEMO_MATURE_TIMEOUT_MS));
      broker.put("druid.getafix.quality.maxMatureRuns", String.valueOf(MEMO_MATURE_RUNS));
      cluster.restartBroker(broker, Duration.ofMinutes(10));
      cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
      final List<Long> memoBytesSeen = new CopyOnWriteArrayList<>();
      final List<String> endpointErrors = new CopyOnWriteArrayList<>();
      final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor();
      try {
        final Instant from = Instant.now();
        poller.scheduleWithFixedDelay(() -> {
          try {
            memoBytesSeen.add(qualityState().path("memoBytes").asLong(-1));
          }
          catch (RuntimeException e) {
            endpointErrors.add(e.toString());
          }
        }, 0, 250, TimeUnit.MILLISECONDS);
        final WorkloadResult load = WorkloadRunner.run(
            cluster.brokerClient(),
            QueryMix.defaultMix(DATASET),
            new WorkloadRunner.Options(MEMO_CLIENTS, MEMO_LOAD, 0, 9, Map.of(BUDGET, MEMO_BUDGET_MS))
        );
        poller.shutdown();
        assertTrue(poller.awaitTermination(1, TimeUnit.MINUTES), "the endpoint poller did not stop");
        System.out.println("memo under sustained load: " + load.summary());
        figures.put("load", load.summary());
        figures.put("queries", load.outcomes().size());
        figures.put("timedOut", load.outcomes().stream().filter(o -> o.coverage() != null && o.coverage().timedOut()).count());

        assertEquals(List.of(), load.failures().stream().limit(5).map(QueryOutcome::error).toList(), load.summary());
        assertTrue(load.outcomes().stream().allMatch(o -> o.coverage() != null), "an answer without its coverage");
        assertTrue(load.outcomes().size() >= 4 * MEMO_CLIENTS, "too little load to test: " + load.summary());
        assertTrue(cluster.broker().isAlive(), "the Broker died under load");

        // Every mature run ends: measured, or failed (evicted, or late at matureTimeoutMs).
        final JsonNode[] state = new JsonNode[1];
        Waits.await("every mature run to end", Duration.ofMillis(MEMO_MATURE_TIMEOUT_MS).plusMinutes(1), Duration.ofMillis(500), () -> {
          state[0] = qualityState();
          return state[0].path("matureRunsInFlight").asInt(-1) == 0;
        }, () -> String.valueOf(state[0]));
        final JsonNode counters = state[0];
        final long evictions = counters.path("memoEvictions").asLong();
        final long failedByEviction = counters.path("matureRunsFailedByReason").path("evicted").asLong();
        figures.put("matureRunsStarted", counters.path("matureRunsStarted").asLong());
        figures.put("matureRunsCompleted", counters.path("matureRunsCompleted").asLong());
        figures.put("matureRunsFailed", counters.path("matureRunsFailed").asLong());
        figures.put("matureRunsFailedByReason", counters.path("matureRunsFailedByReason"));
        figures.put("matureRunsSkipped", counters.path("matureRunsSkipped").asLong());
        figures.put("memoEvictions", evictions);
        figures.put("memoBytesLargestSeen", memoBytesSeen.stream().mapToLong(Long::longValue).max().orElse(-1));
        figures.put("memoBytesReads", memoBytesSeen.size());
        assertTrue(evictions > 0, "the memo never evicted: " + counters);
        assertTrue(failedByEviction > 0, "no mature run failed by eviction: " + counters);
        assertTrue(failedByEviction <= evictions, counters.toString());
        assertEquals(
            counters.path("matureRunsStarted").asLong(),
            counters.path("matureRunsCompleted").asLong() + counters.path("matureRunsFailed").asLong(),
            "every mature run is counted as completed or failed: " + counters
        );
        assertEquals(List.of(), endpointErrors);
        assertFalse(memoBytesSeen.isEmpty(), "the endpoint was never read during the load");
        assertTrue(memoBytesSeen.stream().allMatch(b -> b >= 0 && b <= MEMO_MAX_BYTES), "memo bytes seen: " + memoBytesSeen);
        assertTrue(counters.path("memoBytes").asLong(-1) <= MEMO_MAX_BYTES, counters.toString());

        // The same counts reach the operator's metrics collector, and no emitted memo size exceeds the bound.
        Waits.await("the Broker's memo metrics", Duration.ofMinutes(1), Duration.ofMillis(500), () ->
            metrics.events("getafix/memo/evictions", from, Instant.now(), e -> true).size() == evictions
            && metrics.events("getafix/mature/failed", from, Instant.now(), e -> "evicted".equals(e.path("reason").asText())).size()
               == failedByEviction,
            () -> metrics.countBy("getafix/mature/failed", "reason", from, Instant.now()) + ", "
                  + metrics.countBy("getafix/memo/evictions", "cause", from, Instant.now())
        );
        final List<JsonNode> memoBytes = metrics.events("getafix/memo/bytes", from, Instant.now(), e -> true);
        figures.put("memoBytesMetricLargest", memoBytes.stream().mapToLong(e -> e.path("value").asLong()).max().orElse(-1));
        assertFalse(memoBytes.isEmpty(), "no getafix/memo/bytes emitted");
        assertTrue(memoBytes.stream().allMatch(e -> e.path("value").asLong() <= MEMO_MAX_BYTES), memoBytes.toString());

        final String brokerLog;
        try (RandomAccessFile log = new RandomAccessFile(cluster.broker().logFile().toFile(), "r")) {
          log.seek(brokerLogBefore);
          final byte[] tail = new byte[(int) (log.length() - brokerLogBefore)];
          log.readFully(tail);
          brokerLog = new String(tail, StandardCharsets.UTF_8);
        }
        assertFalse(brokerLog.contains("java.lang.OutOfMemoryError"), "the Broker logged an OutOfMemoryError");
      }
      finally {
        poller.shutdownNow();
        FIGURES.put("memoUnderLoad", figures);
        cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
        cluster.restartBroker(Map.of(), Duration.ofMinutes(10));
      }
    }
  }

  /**
   * Replays of skipped mature runs on a Broker restarted (and restored afterwards) with replays on, every budgeted
   * query sampled and one mature run at most. With the straggler throttled, a few clients send the workload's
   * queries: the one mature run waits on the straggler, so the other sampled queries are skipped and, cut at their
   * budget, queued. Once the load stops (and the straggler is restored, so that the replays end soon), the Broker is
   * idle and replays the queue until it is empty. Every queued replay is accounted for: started or dropped; every
   * started one completed or failed; and the replays' qualities are on the endpoint, marked as replayed.
   */
  @Test
  void skippedSamplesQueuedUnderLoadAreReplayedOnceTheBrokerIsIdleAndEachIsAccountedFor() throws Exception
  {
    final Map<String, Object> figures = new LinkedHashMap<>();
    try {
      cluster.restartBroker(Map.of(
          "druid.getafix.quality.matureSampleRate", "1.0",
          "druid.getafix.quality.maxMatureRuns", String.valueOf(REPLAY_MATURE_RUNS),
          "druid.getafix.quality.matureTimeoutMs", String.valueOf(REPLAY_MATURE_TIMEOUT_MS),
          "druid.getafix.quality.replayQueueSize", String.valueOf(REPLAY_QUEUE_SIZE),
          "druid.getafix.quality.replayExpiration", REPLAY_EXPIRATION
      ), Duration.ofMinutes(10));
      cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
      final WorkloadResult load = WorkloadRunner.run(
          cluster.brokerClient(),
          QueryMix.defaultMix(DATASET),
          new WorkloadRunner.Options(REPLAY_CLIENTS, REPLAY_LOAD, 0, 11, Map.of(BUDGET, REPLAY_BUDGET_MS))
      );
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
      figures.put("load", load.summary());
      assertEquals(List.of(), load.failures().stream().limit(5).map(QueryOutcome::error).toList(), load.summary());

      // The endpoint's figures are read one after another while the Broker's replay thread moves an entry from the
      // queue to the replays in flight: the queue counts as drained only when nothing is queued or running and no
      // figure moved since the read before. The deadline bounds the worst case, in which the last mature run and
      // every replay after it run until the timeout.
      final JsonNode[] state = new JsonNode[1];
      Waits.await(
          "the replay queue to drain",
          Duration.ofMillis(REPLAY_MATURE_TIMEOUT_MS).multipliedBy(REPLAY_QUEUE_SIZE + 2),
          Duration.ofMillis(500),
          () -> {
            final JsonNode before = state[0];
            state[0] = qualityState();
            return state[0].path("replayQueue").asInt(-1) == 0
                   && state[0].path("replaysInFlight").asInt(-1) == 0
                   && state[0].path("matureRunsInFlight").asInt(-1) == 0
                   && before != null
                   && REPLAY_FIELDS.stream().allMatch(field -> before.path(field).equals(state[0].path(field)));
          },
          () -> ": " + state[0]
      );
      final JsonNode counters = state[0];
      REPLAY_FIELDS.forEach(field -> figures.put(field, counters.path(field)));
      figures.put("matureRunsSkipped", counters.path("matureRunsSkipped").asLong());
      final long queued = counters.path("replaysQueued").asLong();
      final long started = counters.path("replaysStarted").asLong();
      long dropped = 0;
      for (JsonNode count : counters.path("replaysDroppedByReason")) {
        dropped += count.asLong();
      }
      assertTrue(queued > 0, "no skipped sample was queued: " + counters);
      assertTrue(started > 0, "nothing was replayed once the load stopped: " + counters);
      assertTrue(
          queued + counters.path("replaysUnneeded").asLong() <= counters.path("matureRunsSkipped").asLong(),
          "only a skipped sample is queued, or measured whole: " + counters
      );
      assertEquals(
          queued,
          started + dropped + counters.path("replayQueue").asLong(),
          "every queued replay is started, dropped or still queued: " + counters
      );
      assertEquals(
          started,
          counters.path("replaysCompleted").asLong() + counters.path("replaysFailed").asLong(),
          "every started replay is counted as completed or failed: " + counters
      );

      final List<JsonNode> replayed = new ArrayList<>();
      counters.path("recent").forEach(run -> {
        if (run.path("replayed").asBoolean(false)) {
          replayed.add(run);
        }
      });
      figures.put("replayedInRecent", replayed.size());
      assertFalse(replayed.isEmpty(), "no replayed run among the recent ones: " + counters.path("recent"));
      assertTrue(replayed.size() <= counters.path("replaysCompleted").asLong(), counters.toString());
      for (JsonNode run : replayed) {
        final JsonNode quality = run.path("quality").path("quality");
        assertTrue(quality.isNumber(), "a replay measured no quality: " + run);
        assertTrue(quality.asDouble() >= 0 && quality.asDouble() <= 1, "a quality outside [0, 1]: " + run);
        assertTrue(run.path("coverage").path("timedOut").asBoolean(false), "only a cut answer is replayed: " + run);
      }
    }
    finally {
      FIGURES.put("replaysUnderLoad", figures);
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
      cluster.restartBroker(Map.of(), Duration.ofMinutes(10));
    }
  }

  @Test
  void theQualityEndpointNeedsReadOnState() throws Exception
  {
    // Users of the test-only authorizer (see GetafixAuthIT): reader may READ, nobody nothing.
    for (Map.Entry<String, Integer> user : Map.of("reader", 200, "nobody", 403).entrySet()) {
      final HttpRequest request = HttpRequest.newBuilder(cluster.broker().uri().resolve("/druid/broker/v1/getafix/quality"))
                                             .timeout(Duration.ofSeconds(30))
                                             .header("X-Getafix-Test-User", user.getKey())
                                             .GET()
                                             .build();
      assertEquals(user.getValue(), HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode(), user.getKey());
    }
  }

  private static JsonNode qualityState()
  {
    return new QualityClient(cluster.broker().uri()).qualityState();
  }

  /** The Broker's record of the mature run of query {@code queryId}, once it has been measured (off the query thread). */
  private static JsonNode awaitMatureRun(String queryId) throws Exception
  {
    final JsonNode[] found = new JsonNode[1];
    Waits.await(
        "the mature run of " + queryId,
        Duration.ofMinutes(2),
        Duration.ofMillis(500),
        () -> {
          for (JsonNode entry : qualityState().path("recent")) {
            if (queryId.equals(entry.path("queryId").asText())) {
              found[0] = entry;
              return true;
            }
          }
          return false;
        },
        () -> "no such entry yet"
    );
    return found[0];
  }
}
