package org.getafix.simulator.settings;

import org.getafix.core.quality.split.QualityProfile;
import org.getafix.core.realise.LoadBeforeDrop;
import org.getafix.core.routing.RoutingPolicies;

import java.util.List;
import java.util.Map;

/**
 * One simulated experiment, as read from a scenario JSON file (format: docs/scenarios.md). Immutable and
 * validated: {@link ScenarioParser} names the offending field of any bad value.
 *
 * @param name            scenario name; the default output directory is {@code out/<name>}
 * @param description     free text for the report
 * @param seed            every random draw derives from it: same seed, same results
 * @param durationSeconds simulated seconds during which clients inject queries
 * @param warmupSeconds   simulated seconds left out of latency and memory figures (the first plans converge)
 * @param roundSeconds    planning round length (thesis: 5 s)
 * @param nodes           the Historicals, in groups of identical nodes
 * @param stragglers      nodes slowed from a given time on
 * @param clients         workload clients, each with its own broker
 * @param segments        the data: initial hourly segments and arrivals
 * @param workload        query shapes and types
 * @param planning        replication and routing settings shared by all runs
 * @param runs            the strategies to compare (names in getafix-core's {@code PlacementStrategies.REGISTRY});
 *                        each run overrides some planning settings
 * @param execution       budgeted execution and admission control; null when no run uses them
 * @param interference    nodes that stall periodically
 * @param diurnal         a day's swing of the clients' rates; null for steady rates
 * @param redundancy      settings of redundant sub-queries, and their figures in the results; null when no run
 *                        uses them
 */
public record ScenarioSettings(
    String name,
    String description,
    long seed,
    double durationSeconds,
    double warmupSeconds,
    double roundSeconds,
    List<NodeGroup> nodes,
    List<Straggler> stragglers,
    Clients clients,
    Segments segments,
    Workload workload,
    Planning planning,
    List<Run> runs,
    Execution execution,
    List<Interference> interference,
    Diurnal diurnal,
    Redundancy redundancy
)
{
  /** The routing policies by their one name, as the Broker's {@code druid.broker.balancer.type} spells them. */
  public static final List<String> ROUTINGS = RoutingPolicies.REGISTRY.names();
  /** A scenario's {@code loadBeforeDrop} names (getafix-core's {@link LoadBeforeDrop}); the first is the default. */
  public static final List<String> LOAD_BEFORE_DROP = List.of("plannedCountServing", "allPlannedLoaded");
  public static final List<String> TIERS = List.of("HOT", "WARM", "COLD");

  /**
   * @param name        id prefix: nodes are named {@code <name>-<i>}
   * @param count       identical nodes in this group
   * @param cores       cores (parallel task slots) per node
   * @param speed       per-core speed factor (1 = nominal)
   * @param memoryBytes memory limit given to the planner
   * @param tier        hardware tier (HOT, WARM, COLD) for the tiering accuracy; null if none
   * @param processingThreads   processing threads the node reports to the Coordinator (Druid's
   *                            {@code druid.processing.numThreads}); by default its cores
   */
  public record NodeGroup(
      String name,
      int count,
      int cores,
      double speed,
      long memoryBytes,
      String tier,
      int processingThreads
  )
  {
  }

  /** Node {@code node} runs at {@code speed} from {@code fromSeconds} on. */
  public record Straggler(String node, double fromSeconds, double speed)
  {
  }

  /**
   * The nodes {@code nodes} stall every {@code everySeconds} for {@code stallSeconds}, running at {@code speedFactor}
   * times their speed meanwhile; node j of the k listed starts its first stall at j·everySeconds/k, so that the
   * stalls take turns rather than coincide.
   */
  public record Interference(List<String> nodes, double everySeconds, double stallSeconds, double speedFactor)
  {
  }

  /**
   * Every client's rate follows a day of {@code periodSeconds}: a factor from {@code minFactor} (night, at time 0)
   * up to 1 (the peak, half a period later) and back, along a cosine.
   */
  public record Diurnal(double periodSeconds, double minFactor)
  {
    public double factorAt(double now)
    {
      return minFactor + (1 - minFactor) * (1 - Math.cos(2 * Math.PI * now / periodSeconds)) / 2;
    }
  }

  /** Redundancy modes of a run (docs/scenarios.md, "Redundant sub-queries"); the first is the default. */
  public static final List<String> REDUNDANCIES = List.of("none", "hedge", "spare", "zoolander", "duplicate");

  /**
   * Settings of redundant sub-queries, shared by every run of the scenario.
   *
   * @param sloMillis          τ, the latency bound of a sub-query (a segment's share, dispatch to first answer):
   *                           Zoolander's bound, and the bound the results count violations of
   * @param periodSeconds      how often sPARE's replicator takes a search step and Zoolander's model decides again
   * @param hedgeRatio         hedges allowed per sub-query ({@code HedgeSettings#hedgeRatio})
   * @param maxFactor          r_max of sPARE's replicator ({@code ReplicatorSettings#maxFactor})
   * @param serviceLevelTarget the share within τ Zoolander stops adding duplicates at; NaN to maximise it
   * @param duplicates         copies of every sub-query in {@code duplicate} mode, and the most Zoolander considers
   */
  public record Redundancy(
      double sloMillis,
      double periodSeconds,
      double hedgeRatio,
      double maxFactor,
      double serviceLevelTarget,
      int duplicates
  )
  {
  }

  /** {@code count} clients; each picks its Poisson rate uniformly in [min, max] queries/s (thesis §4.1). */
  public record Clients(int count, double minQueriesPerSecond, double maxQueriesPerSecond)
  {
  }

  /**
   * @param initial            segments present at time 0 (hours of history)
   * @param arrivalEverySeconds a new hourly segment every so many simulated seconds; 0 for none
   * @param sizeBytes          mean replica size
   * @param sizeJitter         sizes are uniform in sizeBytes·[1 − j, 1 + j]
   * @param loadBytesPerSecond bandwidth of one loading thread from deep storage: load time = size / bandwidth
   * @param loadCpuCores       cores of its Historical each load in progress takes from the queries (fetching,
   *                           decompressing and mapping the files), so that moving data costs latency; 0 charges
   *                           nothing
   */
  public record Segments(
      int initial,
      double arrivalEverySeconds,
      long sizeBytes,
      double sizeJitter,
      double loadBytesPerSecond,
      double loadCpuCores
  )
  {
  }

  /**
   * @param recencyExponent      s of P(newest age) ∝ 1/(age+1)^s
   * @param meanIntervalSegments mean query interval, in hourly segments (geometric)
   * @param queryTypes           the query mix and per-type costs
   * @param queryOverheadMillis  CPU ms at speed 1 a Historical spends on each query it is asked besides the scans
   *                             (HTTP, merging, serialising): what {@code query/cpu/time} misses; 0 in the thesis'
   *                             model, measured at a few ms on the live test cluster
   */
  public record Workload(
      double recencyExponent,
      double meanIntervalSegments,
      List<QueryTypeSettings> queryTypes,
      double queryOverheadMillis
  )
  {
    /** The mix and per-segment costs of a scenario that names no query types. */
    public static final List<QueryTypeSettings> DEFAULT_QUERY_TYPES = List.of(
        new QueryTypeSettings("timeseries", 0.45, 6, 0.25),
        new QueryTypeSettings("topN", 0.35, 12, 0.5),
        new QueryTypeSettings("groupBy", 0.20, 40, 1.0)
    );
  }

  public record QueryTypeSettings(String name, double weight, double meanTaskMillis, double cv)
  {
  }

  /**
   * @param popularityDecay      EWMA decay of popularity (thesis: 0.5)
   * @param popularityBiasCorrection report popularity / (1 − decay^age) so young segments are not underrated
   *                             ({@code PopularityTracker}); applies to every strategy that plans on popularity
   * @param minReplicas          replica floor per segment
   * @param maxReplicas          replica cap per segment
   * @param gamma                balancer imbalance bound (thesis default 0.2)
   * @param capacityEstimator    a name in getafix-core's {@code CapacityEstimators.REGISTRY}
   * @param druidDefaultReplicas replication factor of the druid-default baseline
   * @param routing              a name of {@link #ROUTINGS}
   * @param maxLoadsPerRound     loads a round may issue beyond those that restore the floor: the extension's
   *                             {@code maxLoadsPerRound} churn budget per Coordinator run
   * @param maxDropsPerRound     drops a round may issue: the extension's {@code maxDropsPerRound}; unlimited
   *                             ({@link Integer#MAX_VALUE}) unless set
   * @param loadBeforeDrop       when a replica the plan no longer wants may be dropped (getafix-core's
   *                             {@link LoadBeforeDrop}; the extension's getafix rule uses ALL_PLANNED_LOADED)
   * @param popularityInheritance a new segment starts from the popularity of the one before it
   *                             ({@code PopularityTracker}); applies to every strategy that plans on popularity
   * @param hotLoadShare         the hottest segments drawing this fraction of the load keep two holders
   *                             ({@code PlacementConstraints#hotLoadShare}); Getafix strategies only
   * @param hotMinNodeLoadShare  ... and each draws at least this share of a mean node's load
   *                             ({@code PlacementConstraints#hotMinNodeLoadShare})
   * @param backUpUnstable       what nodes with recurring slow spells hold alone gets a second holder
   *                             ({@code PlacementConstraints#backUpUnstable}); capacity-aware strategies only
   * @param minPlanGain          the gain a fresh plan must bring to replace the plan in force
   *                             ({@code PlacementConstraints#minPlanGain}); Getafix strategies but the thesis' own
   * @param maxRebalanceDataPerHour the most data, as a share of the data set, the plan in force may load per hour
   *                             to rebalance ({@code PlacementConstraints#maxRebalanceDataPerHour})
   */
  public record Planning(
      double popularityDecay,
      boolean popularityBiasCorrection,
      int minReplicas,
      int maxReplicas,
      double gamma,
      String capacityEstimator,
      int druidDefaultReplicas,
      String routing,
      int maxLoadsPerRound,
      int maxDropsPerRound,
      LoadBeforeDrop loadBeforeDrop,
      boolean popularityInheritance,
      double hotLoadShare,
      double hotMinNodeLoadShare,
      boolean backUpUnstable,
      double minPlanGain,
      double maxRebalanceDataPerHour
  )
  {
  }

  /**
   * One compared configuration; null fields take the scenario's planning value.
   *
   * @param execution  how queries execute: null for in full with no gate (the thesis scenarios), else one of
   *                   {@link #EXECUTIONS} (docs/scenarios.md, "Budgeted execution")
   * @param scheme     the run's label before a load sweep expanded it (the label itself when not swept)
   * @param loadFactor every client's query rate is multiplied by it
   * @param loadStep   a change of the load factor during the run; null for none
   * @param budgetAs   how a budgeted query spends its share of the budget: {@code deadline} (answered at
   *                   arrival + share with the segments done, the rest cancelled) or {@code segments} (only as many
   *                   segments as the share pays for are queried, evenly spaced; the answer waits for them)
   * @param redundancy one of {@link #REDUNDANCIES}: whether and how sub-queries are sent to more than one holder
   * @param backUpUnstable overrides the planning's {@link Planning#backUpUnstable}; null keeps it
   * @param minPlanGain    overrides the planning's {@link Planning#minPlanGain}; null keeps it
   */
  public record Run(
      String label,
      String strategy,
      String routing,
      Double gamma,
      String capacityEstimator,
      String execution,
      String scheme,
      double loadFactor,
      LoadStep loadStep,
      String budgetAs,
      String redundancy,
      Boolean backUpUnstable,
      Double minPlanGain
  )
  {
    public Run(String label, String strategy, String routing, Double gamma, String capacityEstimator)
    {
      this(
          label,
          strategy,
          routing,
          gamma,
          capacityEstimator,
          null,
          label,
          1,
          null,
          BUDGET_AS.get(0),
          REDUNDANCIES.get(0),
          null,
          null
      );
    }

    /** The client rate multiplier at simulated time {@code now}. */
    public double loadFactorAt(double now)
    {
      return loadStep != null && now >= loadStep.atSeconds() ? loadFactor * loadStep.factor() : loadFactor;
    }
  }

  /** From {@code atSeconds} on, the load factor is multiplied by {@code factor} (the budget paper's Fig 11: 2×). */
  public record LoadStep(double atSeconds, double factor)
  {
  }

  /** How a budgeted query spends its share: see {@link Run#budgetAs()}. */
  public static final List<String> BUDGET_AS = List.of("deadline", "segments");

  /** Execution modes of a run: full answers, budgeted answers under each control law, or queue-length admission. */
  public static final List<String> EXECUTIONS =
      List.of("full", "budget-hybrid", "budget-integral", "budget-adaptive", "queue-admission", "queue-static");

  /**
   * Settings of budgeted execution and admission control, shared by every run of the scenario.
   *
   * @param rtTargetMillis      the mean response time the controllers hold
   * @param qualityTarget       the mean answer quality a load must keep to count as sustained
   * @param budgetIntegralGain  K_I of the budget controller, ms of budget per ms of error per query
   * @param queueIntegralGain   K_I of the queue-limit controller, queries of limit per ms of error per query
   * @param minBudgetMillis     lower bound of the budget
   * @param maxBudgetMillis     upper bound of the budget (total processing time granted to pending queries)
   * @param maxQueueLimit       upper bound of the queue limit
   * @param staticQueueLimit    the fixed limit of {@code queue-static} (tuned for the target: docs/scenarios.md)
   * @param qualityProfiles     query type → answer quality vs completed fraction of its segments; types not
   *                            listed use {@link QualityProfile#LINEAR}
   */
  public record Execution(
      double rtTargetMillis,
      double qualityTarget,
      double budgetIntegralGain,
      double queueIntegralGain,
      double minBudgetMillis,
      double maxBudgetMillis,
      int maxQueueLimit,
      int staticQueueLimit,
      Map<String, QualityProfile> qualityProfiles
  )
  {
    public QualityProfile profileOf(String queryType)
    {
      return qualityProfiles.getOrDefault(queryType, QualityProfile.LINEAR);
    }
  }

  public int totalNodes()
  {
    return nodes.stream().mapToInt(NodeGroup::count).sum();
  }

  public boolean hasHardwareTiers()
  {
    return nodes.stream().allMatch(g -> g.tier() != null);
  }

  /**
   * Offered load as a fraction of the cluster's nominal core capacity: a sanity figure for scenario authors. The
   * per query work counts once per query, a lower bound: a query split over several nodes pays it on each.
   */
  public double offeredUtilisation()
  {
    double meanWork = 0;
    double weights = 0;
    for (QueryTypeSettings t : workload.queryTypes()) {
      meanWork += t.weight() * t.meanTaskMillis() / 1000;
      weights += t.weight();
    }
    meanWork /= weights;
    final double qps = clients.count() * (clients.minQueriesPerSecond() + clients.maxQueriesPerSecond()) / 2;
    double capacity = 0;
    for (NodeGroup g : nodes) {
      capacity += g.count() * g.cores() * g.speed();
    }
    return qps * (workload.meanIntervalSegments() * meanWork + workload.queryOverheadMillis() / 1000) / capacity;
  }
}
