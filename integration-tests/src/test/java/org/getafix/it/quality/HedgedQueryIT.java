package org.getafix.it.quality;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.core.wire.MatureRunReport;
import org.getafix.core.wire.QueryContextKeys;
import org.getafix.it.cluster.DruidClusterExtension;
import org.getafix.it.cluster.SharedDruidCluster;
import org.getafix.it.getafix.GetafixItCluster;
import org.getafix.localcluster.client.BrokerAnswer;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.client.QualityClient;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.RequestLogEntry;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.experiment.StragglerPlacement;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hedged sub-queries on the shared live cluster ({@link GetafixItCluster}), with every segment on two Historicals
 * and one of them throttled to a straggler. The Broker is restarted with hedging on and Druid's {@code random}
 * replica selection, so that the straggler gets about half of the segments it holds in every query, and compared
 * with queries that decline hedging ({@value QueryContextKeys#HEDGE} {@code false}) on the same Broker:
 * <ul>
 *   <li>without a budget, each native query type and a SQL query answer exactly what the unthrottled cluster answers
 *   (a segment answered by both the straggler and a hedge would count twice), with hedges sent and won, and far
 *   sooner than the same query unhedged;</li>
 *   <li>the straggler's sub-query that lost to its hedges is cancelled on the straggler (its request log says it
 *   failed, where an uncancelled one would run to success), for every type but scan, which Druid cannot cancel once
 *   it runs;</li>
 *   <li>with a budget the straggler cannot meet, hedging recovers segments: the coverage rises, and a complete
 *   answer equals the unthrottled one; a query sampled for a mature run is hedged too, and its mature run measures
 *   it (a complete answer at quality 1);</li>
 *   <li>with Zoolander's redundancy ({@value QueryContextKeys#REDUNDANCY}), once the Broker has seen the straggler
 *   slow, the straggler's sub-queries go to the other holder at once, outside the hedge budget, the copies win, the
 *   answers equal the unthrottled ones, and the quality endpoint shows the model's predicted share within the bound
 *   beside the measured one;</li>
 *   <li>right after a Historical is killed, before ZooKeeper drops it from the Broker's view, its sub-queries fail over
 *   to the other holder, hedged or not, and the answers equal the full ones.</li>
 * </ul>
 * Writes its figures to {@code integration-tests/target/hedged-queries.json}.
 */
@ExtendWith(DruidClusterExtension.class)
class HedgedQueryIT
{
  private static final SyntheticDataset DATASET = GetafixItCluster.DATASET;
  private static final int STRAGGLER = GetafixItCluster.STRONG;
  private static final double STRAGGLER_CORES = 0.02;
  /**
   * Hedges per primary sub-query the test Broker allows: well above the default, so that the hedges the warm-up
   * spends (answers slower than the p95 of their node or of its alternative are hedged) leave enough for the measured
   * queries. What the budget costs is a measurement, not what this test checks.
   */
  private static final double HEDGE_RATIO = 0.5;
  private static final Duration NO_BUDGET_TIMEOUT = Duration.ofSeconds(60);
  private static final long MIN_BUDGET_MS = 1500;
  /** The budget over the unthrottled query's time: as in {@code BudgetedQueryIT}, a straggler's share takes longer. */
  private static final double BUDGET_OVER_UNTHROTTLED = 4;
  /** The cardinality aggregator's output name, and how far its estimate may move with the order of the folds. */
  private static final String ESTIMATE = "distinctRows";
  private static final double ESTIMATE_TOLERANCE = 0.01;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Map<String, Object> FIGURES = new LinkedHashMap<>();

  private static LocalDruidCluster cluster;

  @BeforeAll
  static void cluster() throws Exception
  {
    cluster = SharedDruidCluster.acquire(GetafixItCluster.config());
    SharedDruidCluster.ensureIngested(DATASET);
    StragglerPlacement.replicasEach(cluster, DATASET, STRAGGLER, 2);
    cluster.restartBroker(Map.of(
        "druid.getafix.quality.hedging", "true",
        "druid.getafix.quality.hedgeRatio", String.valueOf(HEDGE_RATIO),
        "druid.broker.balancer.type", "random"
    ), Duration.ofMinutes(10));
    // Hedged warm-up queries also give the Broker each Historical's recent latencies, which set the hedge points.
    final int[] queries = {0};
    final JitCompilerCpu.Settling settling = cluster.warmUntilSettled(JitCompilerCpu.WarmUp.QUERIES, window -> {
      final long end = System.nanoTime() + window.toNanos();
      while (System.nanoTime() < end) {
        for (Map<String, Object> query : everyQueryType()) {
          query(query);
          queries[0]++;
        }
      }
    });
    FIGURES.put("jitWarmUp", Map.of("seconds", settling.took().toSeconds(), "queries", queries[0]));
  }

  @AfterAll
  static void restore() throws Exception
  {
    if (cluster != null && !cluster.isClosed()) {
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
      cluster.restartBroker(Map.of(), Duration.ofMinutes(10));
    }
    if (!FIGURES.isEmpty()) {
      GetafixItCluster.writeFigures("hedged-queries.json", "hedged queries", FIGURES);
    }
  }

  /**
   * Each type over the whole dataset, slow enough on a 0.02-core node to hedge: timeseries and groupBy by hour and
   * topN over all of it, each hashing every row (a cardinality aggregator), and a scan whose filter matches a regular
   * expression against every row.
   */
  private static List<Map<String, Object>> everyQueryType()
  {
    final List<String> intervals = List.of(DATASET.interval());
    return List.of(
        hashingEveryRow(NativeQuery.timeseries(DATASET.dataSource(), intervals).granularity("hour")).toMap(),
        hashingEveryRow(
            NativeQuery.topN(DATASET.dataSource(), intervals).granularity("all").dimension("country").metric("rows").threshold(10)
        ).toMap(),
        hashingEveryRow(NativeQuery.groupBy(DATASET.dataSource(), intervals).granularity("hour").dimensions("country")).toMap(),
        NativeQuery.scan(DATASET.dataSource(), intervals)
                   .columns("__time", "page", "country", "user", "added")
                   .expressionFilter("regexp_like(concat(page, country, user), 'c[0-9]+user-[0-9]*[05]$') && added < 100")
                   .resultFormat("compactedList")
                   .toMap()
    );
  }

  private static NativeQuery hashingEveryRow(NativeQuery query)
  {
    return query.count("rows").longSum("added", "added").cardinality(ESTIMATE, List.of("page", "country", "user"), true);
  }

  /** The SQL counterpart: rows and added per hour of the rows a regular expression matches. */
  private static Map<String, Object> sql(Map<String, Object> context)
  {
    return Map.of(
        "query",
        "SELECT TIME_FLOOR(__time, 'PT1H') AS h, COUNT(*) AS n, SUM(added) AS added FROM \"" + DATASET.dataSource()
        + "\" WHERE REGEXP_LIKE(CONCAT(page, country, \"user\"), 'c[0-9]+user-[0-9]*[05]$') GROUP BY 1 ORDER BY 1",
        "context", context
    );
  }

  /** {@code query} with {@code context} added to its own. */
  private static Map<String, Object> with(Map<String, Object> query, Map<String, Object> context)
  {
    final Map<String, Object> merged = new HashMap<>();
    if (query.get("context") instanceof Map<?, ?> own) {
      own.forEach((key, value) -> merged.put(key.toString(), value));
    }
    merged.putAll(context);
    return NativeQuery.withContext(query, merged);
  }

  private static BrokerAnswer post(String path, Object body) throws IOException, InterruptedException
  {
    final BrokerAnswer answer = new QualityClient(cluster.broker().uri()).post(path, body);
    assertEquals(200, answer.status(), "query failed: " + answer.body());
    return answer;
  }

  private static BrokerAnswer query(Map<String, Object> query) throws IOException, InterruptedException
  {
    return post("/druid/v2/", query);
  }

  private static JsonNode hedgeCounters() throws IOException, InterruptedException
  {
    final JsonNode state = new QualityClient(cluster.broker().uri()).qualityState();
    return MAPPER.createObjectNode()
                 .put("sent", state.path("hedgesSent").asLong(-1))
                 .put("won", state.path("hedgesWon").asLong(-1));
  }

  /**
   * Asserts that {@code answer} is {@code reference}: exactly, but for the cardinality estimates, which must be within
   * {@link #ESTIMATE_TOLERANCE}. Druid's HyperLogLog folds are not exactly associative, so a value merged over several
   * segments (topN over all hours) depends on which segments each server merged first, hedged or not; its rows and
   * sums, where a segment counted twice would show, do not.
   */
  private static void assertSameAnswer(Map<String, Object> query, BrokerAnswer reference, BrokerAnswer answer, String what)
  {
    final List<Double> expected = new ArrayList<>();
    final List<Double> actual = new ArrayList<>();
    assertEquals(canonical(query, reference.body(), expected), canonical(query, answer.body(), actual), what);
    for (int i = 0; i < expected.size(); i++) {
      assertTrue(Math.abs(actual.get(i) - expected.get(i)) <= ESTIMATE_TOLERANCE * expected.get(i),
                 what + ": estimate " + actual.get(i) + " against " + expected.get(i));
    }
  }

  /**
   * The answer without its {@code distinctRows} estimates, which go to {@code estimates} in order; a scan's rows
   * sorted, since its batches come in whichever order the Historicals (and hedges) answer.
   */
  private static JsonNode canonical(Map<String, Object> query, JsonNode body, List<Double> estimates)
  {
    if ("scan".equals(query.get("queryType"))) {
      final List<String> rows = new ArrayList<>();
      body.forEach(batch -> batch.path("events").forEach(row -> rows.add(row.toString())));
      rows.sort(String::compareTo);
      return MAPPER.valueToTree(rows);
    }
    final JsonNode copy = body.deepCopy();
    stripEstimates(copy, estimates);
    return copy;
  }

  private static void stripEstimates(JsonNode node, List<Double> estimates)
  {
    if (node instanceof ObjectNode object && object.has(ESTIMATE)) {
      estimates.add(object.remove(ESTIMATE).asDouble());
    }
    node.forEach(child -> stripEstimates(child, estimates));
  }

  /**
   * A Historical killed under the Broker: until ZooKeeper drops it from the Broker's view (about 30 s), stock Druid
   * fails every query that sends it a sub-query. With failover (on by default) each such sub-query goes at once to the
   * other holder of its segments, hedged or not, and the answer is the full one.
   */
  @Test
  void rightAfterAHistoricalDiesItsSubQueriesFailOverAndTheAnswersAreWhole() throws Exception
  {
    final int victim = GetafixItCluster.MIDDLE;
    final Map<String, Object> timeseries = everyQueryType().get(0);
    final BrokerAnswer reference = query(timeseries);
    final long before = new QualityClient(cluster.broker().uri()).qualityState().path("failoversSent").asLong();
    final int queries = 6;
    cluster.killHistorical(victim);
    try {
      for (int i = 0; i < queries; i++) {
        // Hedged and not, in turn: the race and the plain sub-query each fail over.
        final Map<String, Object> asked = with(timeseries, Map.of(QueryContextKeys.HEDGE, i % 2 == 0));
        assertSameAnswer(asked, reference, query(asked), "query " + i + " after the kill");
      }
    }
    finally {
      // A Historical restarted before ZooKeeper has declared the dead one gone would lose its announcement then.
      Waits.await(
          "the Coordinator to notice the dead " + cluster.historical(victim).name(),
          Duration.ofMinutes(2),
          () -> !cluster.coordinatorClient().historicalServers().contains(cluster.historical(victim).hostAndPort())
      );
      cluster.restartHistorical(victim, Duration.ofMinutes(4));
    }
    final long failovers = new QualityClient(cluster.broker().uri()).qualityState().path("failoversSent").asLong() - before;
    FIGURES.put("failover", Map.of("queries", queries, "failovers", failovers));
    // Druid's random selection sends each query some of the dead node's 60-odd segments.
    assertTrue(failovers >= queries, "sub-queries failed over: " + failovers);
    StragglerPlacement.replicasEach(cluster, DATASET, STRAGGLER, 2);
  }

  @Test
  void hedgedQueriesUnderAStragglerAnswerInFullOnceEachAndCancelTheLosers() throws Exception
  {
    final List<Map<String, Object>> queries = everyQueryType();
    final List<BrokerAnswer> references = new ArrayList<>();
    for (Map<String, Object> query : queries) {
      references.add(query(with(query, Map.of(QueryContextKeys.HEDGE, false))));
    }
    final BrokerAnswer sqlReference = post("/druid/v2/sql/", sql(Map.of(QueryContextKeys.HEDGE, false)));
    final Map<String, Object> figures = new LinkedHashMap<>();
    final List<String> hedgedIds = new ArrayList<>();
    cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
    try {
      for (int i = 0; i < queries.size(); i++) {
        final Map<String, Object> query = queries.get(i);
        final String type = query.get("queryType").toString();
        final String id = "hedged-" + type + "-" + UUID.randomUUID();
        final JsonNode before = hedgeCounters();
        final BrokerAnswer hedged = query(with(query, Map.of("queryId", id)));
        final JsonNode after = hedgeCounters();
        figures.put(type, Map.of("unthrottledMs", references.get(i).millis(), "hedgedMs", hedged.millis(),
                                 "hedgesSent", after.path("sent").asLong() - before.path("sent").asLong(),
                                 "hedgesWon", after.path("won").asLong() - before.path("won").asLong()));
        assertSameAnswer(query, references.get(i), hedged, type + ": the hedged answer differs from the unthrottled one");
        assertTrue(after.path("won").asLong() > before.path("won").asLong(), type + ": no hedge won: " + figures);
        if (!"scan".equals(type)) {
          hedgedIds.add(id);
        }
      }
      final JsonNode before = hedgeCounters();
      final BrokerAnswer sqlHedged = post("/druid/v2/sql/", sql(Map.of()));
      final JsonNode after = hedgeCounters();
      figures.put("sql", Map.of("unthrottledMs", sqlReference.millis(), "hedgedMs", sqlHedged.millis(),
                                "hedgesWon", after.path("won").asLong() - before.path("won").asLong()));
      assertEquals(sqlReference.body(), sqlHedged.body(), "SQL: the hedged answer differs from the unthrottled one");
      assertTrue(after.path("won").asLong() > before.path("won").asLong(), "SQL: no hedge won: " + figures);

      // The straggler's own sub-queries of the hedged queries were cancelled there when their hedges won. Not the
      // scan's: a Historical runs a scan on its HTTP thread as it writes the answer, with no future that Druid's
      // cancellation could reach, so a losing scan runs to its end there.
      final Map<String, RequestLogEntry> onStraggler = new HashMap<>();
      Waits.await("the straggler to log the hedged queries' sub-queries", Duration.ofMinutes(2), Duration.ofMillis(500), () -> {
        for (RequestLogEntry entry : cluster.historical(STRAGGLER).requestLog()) {
          if (hedgedIds.contains(entry.queryId())) {
            onStraggler.put(entry.queryId(), entry);
          }
        }
        return onStraggler.size() == hedgedIds.size();
      }, () -> "logged on the straggler: " + onStraggler.keySet() + " of " + hedgedIds);
      onStraggler.forEach((id, entry) -> assertFalse(
          entry.succeeded(),
          id + ": the straggler ran the sub-query its hedges beat to the end: " + entry.stats()
      ));
      figures.put("cancelledOnStraggler", onStraggler.values().stream().map(RequestLogEntry::exception).distinct().toList());

      // The same query unhedged waits for the straggler: last, so that its sub-query there delays nothing measured.
      final Map<String, Object> timeseries = queries.get(0);
      // A node capped at 1/50 of a core answers its share in anything from 20 s to minutes (its JVM's own threads spend
      // the same quota), so the wait is bounded: the query answers, or Druid fails it at its own timeout (504), and
      // either way it took at least that long. The client waits until then.
      final BrokerAnswer unhedged = new QualityClient(cluster.broker().uri()).post(
          "/druid/v2/",
          with(timeseries, Map.of(QueryContextKeys.HEDGE, false, "timeout", NO_BUDGET_TIMEOUT.toMillis())),
          NO_BUDGET_TIMEOUT.plusSeconds(30)
      );
      final boolean timedOut = unhedged.status() == 504 && unhedged.millis() >= 0.9 * NO_BUDGET_TIMEOUT.toMillis();
      assertTrue(unhedged.status() == 200 || timedOut, "neither answered nor timed out: " + unhedged.body());
      final long hedgedMs = ((Number) ((Map<?, ?>) figures.get("timeseries")).get("hedgedMs")).longValue();
      figures.put("timeseriesUnhedgedMs", unhedged.millis());
      figures.put("timeseriesUnhedgedTimedOut", timedOut);
      figures.put("timeseriesHedgedOverUnhedged", hedgedMs / (double) unhedged.millis());
      if (!timedOut) {
        assertSameAnswer(timeseries, references.get(0), unhedged, "timeseries: the unhedged answer differs");
      }
      assertTrue(2 * hedgedMs < unhedged.millis(), "hedging did not halve the straggler's delay: " + figures);
    }
    finally {
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
      FIGURES.put("noBudget", figures);
    }
  }

  @Test
  void underABudgetHedgesRecoverTheStragglersSegments() throws Exception
  {
    final Map<String, Object> query = everyQueryType().get(0);
    final BrokerAnswer reference = query(with(query, Map.of(QueryContextKeys.HEDGE, false)));
    final long budgetMs = Math.max(MIN_BUDGET_MS, Math.round(BUDGET_OVER_UNTHROTTLED * reference.millis()));
    final Map<String, Object> budgeted = with(query, Map.of(QueryContextKeys.BUDGET_MS, budgetMs, QueryContextKeys.MATURE, false));
    final String sampledId = "hedged-mature-" + UUID.randomUUID();
    final Map<String, Object> figures = new LinkedHashMap<>();
    final BrokerAnswer hedged;
    cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
    try {
      // Sampled for a mature run, which must not keep it from hedging.
      hedged = query(with(budgeted, Map.of(QueryContextKeys.MATURE, true, "queryId", sampledId)));
      final BrokerAnswer unhedged = query(with(budgeted, Map.of(QueryContextKeys.HEDGE, false)));
      figures.put("budgetMs", budgetMs);
      figures.put("unthrottledMs", reference.millis());
      figures.put("hedged", Map.of("ms", hedged.millis(), "coverage", hedged.coverage()));
      figures.put("unhedged", Map.of("ms", unhedged.millis(), "coverage", unhedged.coverage()));
      final int answeredHedged = hedged.coverage().path("answered").asInt(-1);
      final int answeredUnhedged = unhedged.coverage().path("answered").asInt(-1);
      assertTrue(unhedged.coverage().path("late").asInt() > 0, "the straggler was not late: " + figures);
      assertTrue(answeredHedged > answeredUnhedged, "hedging recovered no segment: " + figures);
      if (!hedged.coverage().path("timedOut").asBoolean(true)) {
        assertSameAnswer(query, reference, hedged, "a complete hedged answer differs from the unthrottled one");
      }
    }
    finally {
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
      FIGURES.put("budgeted", figures);
    }
    // The mature run has the hedges' answer memoised; a sub-query still late on the straggler finishes at its own quota.
    final MatureRunReport run = new QualityClient(cluster.broker().uri()).awaitMatureRun(sampledId, Duration.ofMinutes(2));
    figures.put("hedgedMatureRun", Map.of("quality", run.measuredQuality(), "matureMs", run.matureMillis()));
    assertTrue(run.measuredQuality() > 0, "the hedged answer's mature run measured nothing: " + figures);
    if (!hedged.coverage().path("timedOut").asBoolean(true)) {
      assertEquals(1.0, run.measuredQuality(), "a complete hedged answer is its mature answer: " + figures);
    }
  }

  @Test
  void zoolanderCopiesTheStragglersSubQueriesUpFrontAndTheyCountOnce() throws Exception
  {
    final Map<String, Object> query = everyQueryType().get(0);
    final BrokerAnswer reference = query(with(query, Map.of(QueryContextKeys.HEDGE, false)));
    final Map<String, Object> copied = with(query, Map.of(QueryContextKeys.REDUNDANCY, "zoolander"));
    final QualityClient client = new QualityClient(cluster.broker().uri());
    final Map<String, Object> figures = new LinkedHashMap<>();
    final JsonNode before = client.qualityState();
    final int[] queries = {0};
    cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
    try {
      // The model judges a Historical by its last 30 s of sub-queries, which start out as the unthrottled straggler's;
      // hedges, and the primaries they beat, teach the Broker that it is slow now.
      Waits.await("a copy of a sub-query sent up front and winning", Duration.ofMinutes(3), Duration.ZERO, () -> {
        final BrokerAnswer answer = query(copied);
        queries[0]++;
        assertSameAnswer(query, reference, answer, "the answer of query " + queries[0] + " differs from the unthrottled one");
        return client.qualityState().path("copiesWon").asLong() > before.path("copiesWon").asLong();
      }, () -> queries[0] + " queries, quality state " + stateOf(client));
      // Judged once the period of those copies ends, every 3 s.
      final JsonNode[] period = {null};
      Waits.await("a redundancy period with judged sub-queries", Duration.ofMinutes(1), Duration.ZERO, () -> {
        final BrokerAnswer answer = query(copied);
        queries[0]++;
        assertSameAnswer(query, reference, answer, "the answer of query " + queries[0] + " differs from the unthrottled one");
        period[0] = client.qualityState().path("lastRedundancyPeriod");
        return period[0].path("judged").asLong() > 0;
      }, () -> "last period " + period[0]);
      final JsonNode after = client.qualityState();
      figures.put("queries", queries[0]);
      figures.put("copiesSent", after.path("copiesSent").asLong() - before.path("copiesSent").asLong());
      figures.put("copiesWon", after.path("copiesWon").asLong() - before.path("copiesWon").asLong());
      figures.put("hedgesSent", after.path("hedgesSent").asLong() - before.path("hedgesSent").asLong());
      figures.put("lastRedundancyPeriod", MAPPER.convertValue(period[0], Map.class));
      final double predicted = period[0].path("predictedServiceLevel").asDouble(Double.NaN);
      final double measured = period[0].path("measuredServiceLevel").asDouble(Double.NaN);
      assertTrue(predicted >= 0 && predicted <= 1, "predicted service level: " + figures);
      assertTrue(measured >= 0 && measured <= 1, "measured service level: " + figures);
      assertTrue((Long) figures.get("copiesSent") > 0, "no copy was sent: " + figures);
    }
    finally {
      cluster.setCpuQuota(STRAGGLER, cluster.config().cpuQuota(STRAGGLER));
      FIGURES.put("zoolander", figures);
    }
  }

  /** The quality endpoint's state for a failure message, or why it could not be read. */
  private static String stateOf(QualityClient client)
  {
    try {
      return client.qualityState().toString();
    }
    catch (RuntimeException e) {
      return "unreadable: " + e.getMessage();
    }
  }
}
