package org.getafix.core.contract;

/**
 * Every metric the Getafix extensions emit, by the name Druid's emitters report. docs/configuration.md documents
 * each, and the prometheus-emitter and statsd-emitter dimension maps in distribution/src/metrics map each (tests in
 * distribution check both); a new metric is a constant here first.
 */
public enum GetafixMetric
{
  // The leading Coordinator, every round; all carry dimension tier.
  ROUND_TIME("getafix/round/time", "duration of the planning round in ms"),
  REPLICAS_PLANNED("getafix/replicas/planned", "replicas in the plan"),
  REPLICAS_ACTUAL("getafix/replicas/actual", "loaded replicas of the segments Getafix governs"),
  SEGMENT_LOADS("getafix/segment/load/count", "plan-driven loads issued since the previous round"),
  SEGMENT_LOAD_BYTES(
      "getafix/segment/load/bytes",
      "the bytes of the segments of the plan-driven loads issued since the previous round"
  ),
  SEGMENT_DROPS("getafix/segment/drop/count", "plan-driven drops issued since the previous round"),
  NODE_CAPACITY("getafix/node/capacity", "a Historical's estimated capacity (dimension server)"),
  NODE_SLOW_ROUNDS(
      "getafix/node/slowRounds",
      "of a Historical's last 20 rounds, how many were slow: stalled or slower than usual (server)"
  ),
  NODE_UNSTABLE(
      "getafix/node/unstable",
      "1 for a Historical slow often enough that what it holds alone gets a second holder, else 0 (server)"
  ),
  NODE_TIER("getafix/node/tier", "a Historical's measured tier, 2 = HOT, 1 = WARM, 0 = COLD (server, getafixTier)"),
  TIERING_ACCURACY("getafix/tiering/accuracy", "share of Historicals whose measured tier matches the hardware's"),
  STATS_MISSING("getafix/stats/missing", "1 for each Historical without usable stats this round (server)"),
  STATS_REJECTED(
      "getafix/stats/rejected",
      "1 for each Historical whose report failed a plausibility check this round (server, reason = the field)"
  ),
  PLAN_KEPT(
      "getafix/plan/kept",
      "1 when the round keeps the plan in force, 0 when it adopts its fresh plan (reason)"
  ),
  PLAN_REPAIRED(
      "getafix/plan/repaired",
      "segments of the plan in force whose placement changed this round to bring its peak back within the bound"
  ),
  PLAN_PEAK("getafix/plan/peak", "the plan's most utilised Historical's load over its capacity, relative to the mean"),
  REFUSED("getafix/refused", "1 while the Coordinator config stops Getafix, else 0"),
  ROLLBACK_BELOW_STOCK(
      "getafix/rollback/belowStock",
      "while rolling back: segments with fewer loaded replicas than the rule's stockReplicants"
  ),
  ROLLBACK_ABOVE_STOCK(
      "getafix/rollback/aboveStock",
      "while rolling back: segments with more loaded replicas than the rule's stockReplicants"
  ),

  // Brokers with a Getafix routing strategy, every druid.getafix.routing.period.
  ROUTE_PICKS("getafix/route/picks", "replica choices since the previous emission (policy)"),
  ROUTE_FALLBACKS("getafix/route/fallbacks", "ABR picks handed to LBR since the previous emission (policy, reason)"),
  ROUTE_TABLE_AGE("getafix/route/table/age", "ms since the routing table was last fetched or confirmed (policy)"),

  // Brokers with the quality monitor, per budgeted query; dimensions dataSource and type.
  QUALITY_COVERAGE("getafix/quality/coverage", "answered share of a budgeted query's segments"),
  BUDGET_MS("getafix/budget/ms", "a budgeted query's budget in ms; for a controller-set one, the controller's"),
  BUDGET_SPLIT_MS(
      "getafix/budget/split/ms",
      "a controller-budgeted query's share of its controller's budget for the queries pending on it, in ms (lane)"
  ),
  RESPONSE_TIME_MEAN("getafix/rt/mean", "the response-time estimate the query's budget answers to, in ms"),
  QUERY_SHED("getafix/query/shed", "1 for a low-priority query shed by admission control (signal)"),
  QUALITY_ANSWER("getafix/quality/answer", "measured quality of an online answer, from its mature run"),
  MATURE_STARTED("getafix/mature/started", "1 when a sampled query's mature run starts"),
  MATURE_COMPLETED("getafix/mature/completed", "1 when a mature run is measured"),
  MATURE_FAILED("getafix/mature/failed", "1 when a mature run fails (reason)"),
  MATURE_SKIPPED("getafix/mature/skipped", "1 when a sampled query gets no mature run (maxMatureRuns in flight)"),
  REPLAY_QUEUED("getafix/quality/replay/queued", "1 when a skipped sampled query is queued to be replayed whole"),
  REPLAY_UNNEEDED(
      "getafix/quality/replay/unneeded",
      "1 when a skipped sampled query answered whole online, so its quality is measured without a replay"
  ),
  REPLAY_STARTED("getafix/quality/replay/started", "1 when a queued query is re-executed whole"),
  REPLAY_COMPLETED("getafix/quality/replay/completed", "1 when a replay is measured"),
  REPLAY_FAILED("getafix/quality/replay/failed", "1 when a replay fails or times out"),
  REPLAY_DROPPED("getafix/quality/replay/dropped", "1 when a queued replay is dropped unrun (reason)"),
  MEMO_BYTES("getafix/memo/bytes", "the memo's weighed size in bytes after a sub-answer is memoised"),
  MEMO_EVICTIONS("getafix/memo/evictions", "1 when a memoised sub-answer is evicted (cause)"),
  HEDGE_SENT("getafix/hedge/sent", "1 for each hedge sub-query sent to another holder of a late sub-query's segments"),
  HEDGE_WON("getafix/hedge/won", "1 when a sub-query's answer came from its hedges rather than its Historical"),
  COPY_SENT("getafix/copy/sent", "1 for each copy of a sub-query sent up front to another holder (redundancy)"),
  COPY_WON("getafix/copy/won", "1 when a sub-query's answer came from its copies rather than its Historical"),
  SUBQUERY_SPLIT(
      "getafix/subquery/split",
      "the parts a budgeted sub-query was split into (maxSplit, splitWhen)"
  ),
  FAILOVER_SENT(
      "getafix/failover/sent",
      "1 for each sub-query re-sent to another holder because the Historical of its segments could not be reached"
  ),

  // Brokers with the quality monitor and redundancy on, every 3 s; dimension mode.
  REDUNDANCY_FACTOR("getafix/redundancy/factor", "sPARE's replication factor r for the next period"),
  REDUNDANCY_COPIED("getafix/redundancy/copied", "share of the period's hedgeable sub-queries copied up front"),
  REDUNDANCY_PREDICTED(
      "getafix/redundancy/serviceLevel/predicted",
      "Zoolander's mean predicted share of the period's sub-queries answered within redundancyBoundMs"
  ),
  REDUNDANCY_MEASURED(
      "getafix/redundancy/serviceLevel/measured",
      "the measured share of the same sub-queries answered within redundancyBoundMs"
  );

  private final String metricName;
  private final String doc;

  GetafixMetric(String metricName, String doc)
  {
    this.metricName = metricName;
    this.doc = doc;
  }

  /** The name emitters report, e.g. {@code getafix/round/time}. */
  public String metricName()
  {
    return metricName;
  }

  public String doc()
  {
    return doc;
  }
}
