/**
 * Redundant sub-queries, so that one slow Historical does not set the tail of every query touching it, with fewer
 * replicas to route around than stock Druid keeps. Plain Java for the Broker and the simulator:
 * <ul>
 *   <li>{@link org.getafix.core.redundancy.LatencyWindow}, {@link org.getafix.core.redundancy.NodeLatencies}: each
 *   node's recent sub-query latencies (quantile, CDF, mean, C_v²) and arrival rate, the measurements the rest
 *   reads;</li>
 *   <li>{@link org.getafix.core.redundancy.HedgePolicy}: when to re-issue a late sub-query to another holder (the
 *   node's p95, capped by the remaining budget), under a {@link org.getafix.core.redundancy.HedgeBudget} of 5% extra
 *   sub-queries that lose (a hedge that wins replaces its primary and costs no token);</li>
 *   <li>{@link org.getafix.core.redundancy.SubQuerySplit}: when a budgeted sub-query goes as parts (to a node expected
 *   to miss its deadline, or always), so that the parts it finishes in time count;</li>
 *   <li>{@link org.getafix.core.redundancy.ZoolanderModel}: Zoolander's model of replication for predictability
 *   (§2.2, with M/G/1 queueing), predicting the share within a latency bound for N duplicates and choosing N;</li>
 *   <li>{@link org.getafix.core.redundancy.TokenArbiter}: sPARE's token-based arbiter TAD (§4), choosing the fastest
 *   holders with a token left, never two replicas on one;</li>
 *   <li>{@link org.getafix.core.redundancy.PartialReplicator}: sPARE's replicator (§5), a fractional replication
 *   factor found by its iterative search within the stability condition.</li>
 * </ul>
 * The papers: "Zoolander: Efficiently Meeting Very Strict, Low-Latency SLOs" and "sPARE: Partial Replication for
 * Multi-tier Applications in the Cloud".
 */
package org.getafix.core.redundancy;
