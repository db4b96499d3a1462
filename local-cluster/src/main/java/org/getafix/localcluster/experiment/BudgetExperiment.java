package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.core.wire.QueryContextKeys;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The quality monitor's budget controller and admission controller measured on a live cluster, each run on a Broker
 * restarted with the setting under test, with one Historical throttled to a straggler while it runs. Shared by the
 * budget-control integration test and {@code ./getafix bench live}.
 *
 * <p>The workload: timeseries queries (hourly, count, longSum and a cardinality aggregator that hashes every row)
 * over 10 to all of the dataset's hourly segments, the size cycling deterministically with the query's number. Every
 * segment has one replica ({@link #placeOneReplicaEach}), a third or so of them on the straggler. With the
 * straggler's work queued behind the other clients' queries, whole answers take from a fraction of a second to several
 * times the target, and the more so the more clients there are: the response time at a given budget grows with the
 * load, as in the budget paper's index server, and the target is met only by cutting answers off.
 *
 * <p>The response-time target is not hard-coded: {@link #calibrate} measures the whole answers (budget far above them)
 * under the lower load on this machine first, and the target is a share of their mean.
 * <ul>
 *   <li><b>Control</b> ({@link #controlRun}): N closed-loop clients send controller-budgeted queries (no
 *   {@code getafixBudgetMs}), then 2N. Per control interval ({@link #INTERVAL} completed queries, the controller's
 *   adaptive period) it records the mean response time and the controller's budget and response-time estimate (from
 *   the quality endpoint).</li>
 *   <li><b>Admission</b> ({@link #admissionRun}): high-priority closed-loop clients and open-loop low-priority
 *   arrivals, all with the same fixed budget, under the quality-guided or the timeout-rate-guided admission
 *   controller.</li>
 * </ul>
 *
 * @param cluster   the cluster, with {@code dataset} ingested
 * @param dataset   the hourly dataset the queries read
 * @param straggler index of the Historical throttled while a run measures
 * @param settings  how the experiment runs
 */
public record BudgetExperiment(LocalDruidCluster cluster, SyntheticDataset dataset, int straggler, Settings settings)
{
  public static final String HYBRID = "HYBRID";
  public static final String ANSWER_QUALITY = "ANSWER_QUALITY";
  public static final String PREDICTED_QUALITY = "PREDICTED_QUALITY";
  public static final String TIMEOUT_RATE = "TIMEOUT_RATE";
  public static final String GRADIENT2 = "GRADIENT2";
  /** Queries per control interval: the controller's adaptive period (BudgetControlConfig.DEFAULT_ADAPTIVE_PERIOD). */
  public static final int INTERVAL = 10;
  public static final int MIN_INTERVALS_BEFORE_STEP = 4;
  public static final int MIN_INTERVALS_AFTER_STEP = 10;
  public static final double ADMISSION_TARGET = 0.9;
  /**
   * The straggler's CPU: its third of a 100-hour query takes about a second alone, so that under two clients some
   * answers are whole within the target and some are not, and under four most are not.
   */
  public static final double STRAGGLER_CORES = 0.1;
  /** N: closed-loop clients before the load step; 2N after it. */
  public static final int CLIENTS = 2;
  private static final int MIN_HOURS = 10;
  /** The target as a share of the mean whole-answer response time under N clients. */
  private static final double TARGET_SHARE_OF_WHOLE = 0.8;
  /** The whole answers must take long enough that Broker overheads (tens of ms) are a small part of the target. */
  private static final long MIN_WHOLE_MEAN_MS = 400;
  private static final long CALIBRATION_BUDGET_MS = 20_000;
  /**
   * Calibration queries not counted: the first queries after the cluster starts run on cold JVMs and page caches (in
   * a first run they took 2.4 s on average where the same load took 0.9 s a minute later).
   */
  private static final int CALIBRATION_WARMUP = 10;
  /**
   * Before calibrating, the load runs at the straggler's own quota until the Historicals' JIT compilers have settled.
   * Throttled to 0.1 core, a fresh straggler compiles Druid's query path on that tenth of a core for minutes: a
   * targeted run of the integration test on a fresh cluster got 17 calibration answers in 45 s, at 3.1 s each, and
   * failed.
   */
  private static final JitCompilerCpu.WarmUp JIT_WARM_UP = JitCompilerCpu.WarmUp.QUERIES;
  private static final int CALIBRATION_QUERIES = 30;
  private static final Duration CALIBRATION_MAX = Duration.ofSeconds(45);
  private static final int BEFORE_STEP_QUERIES = 120;
  private static final Duration BEFORE_STEP_MAX = Duration.ofSeconds(40);
  private static final int AFTER_STEP_QUERIES = 250;
  private static final Duration AFTER_STEP_MAX = Duration.ofSeconds(45);
  /**
   * A phase lasts at least this many times the time its fewest measurable intervals take at the target response time,
   * so that a slower machine, which calibrates a longer target, still gets them (a run with a 1.75 s target had 9
   * intervals after the step in 45 s).
   */
  private static final double PHASE_TIME_MARGIN = 1.5;
  /**
   * Low-priority queries in flight on average: by Little's law the arrival rate times the budget that bounds each one,
   * so the arrival period is the calibrated budget over this. Runs with 12 to 13 in flight (4/s at a 3.1 or 3.2 s
   * budget, 5/s at 2.5 s) filled the Broker's 16 HTTP threads with them, the high-priority clients and the mature
   * runs, and high-priority queries waited 5 to 17 s for a thread against their budget: a wait outside the budget, so
   * those runs measured the Broker's queue, not admission control. Runs with 10 in flight (4/s at 2.49 s) were valid. A
   * fixed rate tipped over whenever a slower machine calibrated a longer budget. The standard setting; an admission
   * run gives the Broker HTTP threads for more ({@link #brokerHttpThreads}).
   */
  public static final int LOW_PRIORITY_IN_FLIGHT = 8;
  /** The launcher's Broker HTTP threads ({@code druid.server.http.numThreads}). */
  private static final int LAUNCHER_BROKER_HTTP_THREADS = 16;
  /** The quality monitor's own {@code maxMatureRuns}: the standard setting. */
  public static final int DEFAULT_MAX_MATURE_RUNS = 8;
  /**
   * How far above {@link #ADMISSION_TARGET} the high-priority queries alone must keep their mean quality at the
   * admission budget ({@link #withProbedAdmissionBudget}): the room low-priority load may take, and admission control
   * give back.
   */
  public static final double ADMISSION_BUDGET_HEADROOM = 0.05;
  /** The admission budgets probed: the whole answers' p90 times {@code 1.25^k}, k from 0 to this − 1. */
  private static final int ADMISSION_BUDGET_STEPS = 6;
  private static final double ADMISSION_BUDGET_GROWTH = 1.25;
  /** Probe queries counted at each budget, after {@code ADMISSION_PROBE_SKIP} that let the last budget's runs end. */
  private static final int ADMISSION_PROBE_QUERIES = 24;
  private static final int ADMISSION_PROBE_SKIP = 4;
  private static final Duration ADMISSION_PROBE_MAX = Duration.ofSeconds(30);
  /** An admission run ends after this many high-priority queries or {@link #ADMISSION_MAX}, whichever is first. */
  public static final int ADMISSION_HIGH_PRIORITY_QUERIES = 120;
  public static final Duration ADMISSION_MAX = Duration.ofSeconds(50);
  /** The Broker's admission window ({@code admissionWindowMs}): a run lasts at most 50 s, so a few seconds. */
  public static final Duration ADMISSION_CONTROL_WINDOW = Duration.ofSeconds(3);
  /** The windows in which policies are compared at equal high-priority quality ({@link AdmissionWindows}). */
  public static final Duration ADMISSION_COMPARISON_WINDOW = Duration.ofSeconds(5);
  private static final Duration BROKER_RESTART = Duration.ofMinutes(10);

  /**
   * How the experiment runs.
   *
   * @param stragglerCores the straggler's CPU while a run measures
   * @param clients        N: closed-loop clients before the load step, 2N after it; also the high-priority clients of
   *                       the admission runs
   * @param lowPriorityInFlight the admission runs' low-priority queries in flight on average, ≥ 1: the arrival
   *                       period is the admission budget over this
   * @param maxMatureRuns  the admission runs' and the admission budget probe's {@code maxMatureRuns}, ≥ 1. Every
   *                       high-priority query asks for a mature run, whose late sub-queries run on after its answer,
   *                       at its priority, on the straggler; the more may run at once, the longer the backlog they
   *                       leave there for the next queries, which then are late in turn
   * @param queryIdPrefix  the start of every query's id, which tells whose queries they are in the Broker's logs
   */
  public record Settings(
      double stragglerCores,
      int clients,
      int lowPriorityInFlight,
      int maxMatureRuns,
      String queryIdPrefix
  )
  {
    public Settings
    {
      if (lowPriorityInFlight < 1) {
        throw new IllegalArgumentException("lowPriorityInFlight must be at least 1, got " + lowPriorityInFlight);
      }
      if (maxMatureRuns < 1) {
        throw new IllegalArgumentException("maxMatureRuns must be at least 1, got " + maxMatureRuns);
      }
    }

    /**
     * {@link #STRAGGLER_CORES}, {@link #CLIENTS}, {@link #LOW_PRIORITY_IN_FLIGHT} and
     * {@link #DEFAULT_MAX_MATURE_RUNS}, the figures the integration test's margins were set on.
     */
    public static Settings standard(String queryIdPrefix)
    {
      return new Settings(STRAGGLER_CORES, CLIENTS, LOW_PRIORITY_IN_FLIGHT, DEFAULT_MAX_MATURE_RUNS, queryIdPrefix);
    }

    /**
     * The admission runs' Broker HTTP threads: two per query in flight (a query holds one, and its mature run's
     * sub-queries are read while it waits), never fewer than the launcher's. With 12 to 13 low-priority queries in
     * flight on the launcher's 16 threads, high-priority queries waited seconds for a thread, outside their budget.
     */
    public int brokerHttpThreads()
    {
      return Math.max(LAUNCHER_BROKER_HTTP_THREADS, 2 * (clients + lowPriorityInFlight));
    }
  }

  /**
   * What {@link #calibrate} found: whole answers under N clients with the straggler.
   *
   * @param targetMs          the control runs' response-time target: {@code TARGET_SHARE_OF_WHOLE} of the whole
   *                          answers' mean
   * @param admissionBudgetMs the admission runs' fixed budget: the whole answers' p90, or what
   *                          {@link #withProbedAdmissionBudget} raised it to
   * @param enoughAnswers     whether at least half the calibration queries were answered
   * @param slowEnough        whether the whole answers took long enough ({@code MIN_WHOLE_MEAN_MS} on average) that
   *                          Broker overheads are a small part of the target
   * @param figures           everything measured, for a report
   */
  public record Calibration(
      long targetMs,
      long admissionBudgetMs,
      boolean enoughAnswers,
      boolean slowEnough,
      Map<String, Object> figures
  )
  {
  }

  /**
   * Hands placement to stock Druid with one replica per segment and waits until a fifth or more of them are on the
   * straggler only ({@link StragglerPlacement#oneReplicaEach}); returns how many are.
   */
  public long placeOneReplicaEach() throws TimeoutException
  {
    final String host = cluster.historical(straggler).hostAndPort();
    return StragglerPlacement.oneReplicaEach(cluster, dataset, straggler)
                             .values()
                             .stream()
                             .filter(h -> h.contains(host))
                             .count();
  }

  /**
   * Whole answers under N clients on the Broker as found (no controller): budgets far above the answers' times, so
   * that nothing is cut, after a JIT warm-up and a few uncounted queries. The target is a share of their mean, and the
   * admission budget their p90.
   */
  public Calibration calibrate() throws Exception
  {
    final Map<String, Object> jitWarmUp = warmUpJit();
    final BudgetLoad run = new BudgetLoad(cluster, INTERVAL, null);
    cluster.setCpuQuota(straggler, settings.stragglerCores());
    try {
      run.closedLoop(settings.clients(), wholeAnswer("calibration-"));
      run.awaitCompleted("calibration queries", CALIBRATION_WARMUP + CALIBRATION_QUERIES, CALIBRATION_MAX);
    }
    finally {
      run.stop();
      restoreStraggler();
    }
    final List<BudgetLoad.Outcome> answered = run.outcomes(o -> o.status() == 200 && o.index() > CALIBRATION_WARMUP);
    final double[] millis = answered.stream().mapToDouble(BudgetLoad.Outcome::millis).sorted().toArray();
    final double mean = mean(millis);
    final double p90 = millis.length == 0 ? Double.NaN : millis[(int) Math.floor(0.9 * (millis.length - 1))];
    final long targetMs = Math.round(TARGET_SHARE_OF_WHOLE * mean / 10) * 10;
    final long admissionBudgetMs = Math.round(p90 / 10) * 10;
    final Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("jitWarmUp", jitWarmUp);
    figures.put("stragglerCores", settings.stragglerCores());
    figures.put("clients", settings.clients());
    figures.put("queries", run.outcomes(o -> o.index() > CALIBRATION_WARMUP).size());
    figures.put("warmupQueries", CALIBRATION_WARMUP);
    figures.put("answered", answered.size());
    figures.put("wholeMeanMs", mean);
    figures.put("wholeP90Ms", p90);
    figures.put("wholeMaxMs", millis.length == 0 ? Double.NaN : millis[millis.length - 1]);
    figures.put("cutShare", answered.stream().filter(o -> o.answeredShare() < 1).count() / (double) Math.max(1, answered.size()));
    figures.put("targetMs", targetMs);
    figures.put("admissionBudgetMs", admissionBudgetMs);
    return new Calibration(
        targetMs,
        admissionBudgetMs,
        answered.size() >= CALIBRATION_QUERIES / 2,
        mean >= MIN_WHOLE_MEAN_MS,
        figures
    );
  }

  /**
   * Runs the calibration load unthrottled, in windows, until the Historicals' compilers have settled as
   * {@link #JIT_WARM_UP} says. Where /proc cannot tell (not Linux), no window.
   */
  private Map<String, Object> warmUpJit() throws Exception
  {
    return warmUpJit(cluster, settings.clients(), wholeAnswer("warm-up-"), JIT_WARM_UP);
  }

  /**
   * Keeps {@code clients} closed-loop clients sending {@code queries} on {@code cluster}, in windows, until the
   * Historicals' compilers have settled as {@code warmUp} says; returns how long it took, how many queries and the
   * compilers' share of a Historical's CPU in the last window. Where /proc cannot tell (not Linux), no window.
   */
  static Map<String, Object> warmUpJit(
      LocalDruidCluster cluster,
      int clients,
      LongFunction<BudgetLoad.Request> queries,
      JitCompilerCpu.WarmUp warmUp
  ) throws Exception
  {
    final BudgetLoad run = new BudgetLoad(cluster, INTERVAL, null);
    final JitCompilerCpu.Settling settling;
    try {
      run.closedLoop(clients, queries);
      settling = cluster.warmUntilSettled(
          warmUp,
          window -> run.awaitCompleted("a JIT warm-up window", Integer.MAX_VALUE, window)
      );
    }
    finally {
      run.stop();
    }
    final Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("seconds", settling.took().toSeconds());
    figures.put("queries", run.completed());
    figures.put("jitShareLastWindow", settling.lastShare());
    return figures;
  }

  /** The calibration's queries: whole answers, with a budget far above them. */
  private LongFunction<BudgetLoad.Request> wholeAnswer(String queryIdPrefix)
  {
    return i -> new BudgetLoad.Request(
        NativeQuery.withContext(sizedQuery(dataset, i), Map.of(
            QueryContextKeys.BUDGET_MS, CALIBRATION_BUDGET_MS,
            QueryContextKeys.MATURE, false,
            "queryId", settings.queryIdPrefix() + queryIdPrefix + i
        )),
        true
    );
  }

  /**
   * {@code calibration} with the admission budget raised until the high-priority clients alone, each query with a
   * mature run as in {@link #admissionRun}, keep a mean quality of at least {@link #ADMISSION_TARGET} +
   * {@link #ADMISSION_BUDGET_HEADROOM}: the first of {@link #admissionBudgets} that does, or the last. At the whole
   * answers' p90 itself, runs with a 0.5-core straggler kept 0.81–0.88 with hardly a low-priority query admitted (the
   * late sub-queries of a cut query run on for its mature run and load the straggler further), below the 0.9 target,
   * so that no policy could hold it and the policies could not be compared at it. The quality of these hourly queries
   * is their answered share of the hours, what a mature run measures; the probes are in the figures
   * ({@code admissionBudgetProbe}).
   */
  public ProbedAdmissionBudget withProbedAdmissionBudget(Calibration calibration) throws Exception
  {
    final List<AdmissionBudgetProbe> probes = new ArrayList<>();
    long budgetMs = calibration.admissionBudgetMs();
    // The high-priority queries' mature runs as the admission runs will have them.
    cluster.restartBroker(
        Map.of("druid.getafix.quality.maxMatureRuns", String.valueOf(settings.maxMatureRuns())),
        BROKER_RESTART
    );
    cluster.setCpuQuota(straggler, settings.stragglerCores());
    try {
      for (long candidate : admissionBudgets(calibration.admissionBudgetMs())) {
        budgetMs = candidate;
        final double quality = highPriorityAloneQuality(candidate, probes.size());
        probes.add(new AdmissionBudgetProbe(candidate, quality));
        if (quality >= ADMISSION_TARGET + ADMISSION_BUDGET_HEADROOM) {
          break;
        }
      }
    }
    finally {
      restoreStraggler();
    }
    final Map<String, Object> figures = new LinkedHashMap<>(calibration.figures());
    figures.put("admissionBudgetProbe", probes);
    figures.put("admissionBudgetMs", budgetMs);
    return new ProbedAdmissionBudget(
        new Calibration(calibration.targetMs(), budgetMs, calibration.enoughAnswers(), calibration.slowEnough(), figures),
        probes
    );
  }

  /** The high-priority queries' mean quality alone at one admission budget. */
  public record AdmissionBudgetProbe(long budgetMs, double highPriorityMeanQuality)
  {
  }

  /** A calibration with its probed admission budget, and the probes that chose it, in order. */
  public record ProbedAdmissionBudget(Calibration calibration, List<AdmissionBudgetProbe> probes)
  {
    /** The budget and the probes, in words. */
    public String describe()
    {
      return String.format(
          Locale.ROOT,
          "admission budget %d ms (the high-priority queries alone: %s)",
          calibration.admissionBudgetMs(),
          probes.stream()
                .map(p -> String.format(Locale.ROOT, "quality %.3f at %d ms", p.highPriorityMeanQuality(), p.budgetMs()))
                .collect(Collectors.joining(", "))
      );
    }
  }

  /** The admission budgets {@link #withProbedAdmissionBudget} tries, in order: {@code p90Ms} growing by a quarter. */
  static List<Long> admissionBudgets(long p90Ms)
  {
    final List<Long> budgets = new ArrayList<>();
    double budget = Math.max(10, p90Ms);
    for (int step = 0; step < ADMISSION_BUDGET_STEPS; step++) {
      budgets.add(Math.round(budget / 10) * 10);
      budget *= ADMISSION_BUDGET_GROWTH;
    }
    return budgets;
  }

  /** The mean answered share of the high-priority clients' queries alone at {@code budgetMs}. */
  private double highPriorityAloneQuality(long budgetMs, int probe) throws Exception
  {
    final BudgetLoad run = new BudgetLoad(cluster, INTERVAL, null);
    try {
      run.closedLoop(
          settings.clients(),
          highPriority(budgetMs, settings.queryIdPrefix() + "admission-probe-" + probe + "-")
      );
      run.awaitCompleted(
          "the admission budget probe at " + budgetMs + " ms",
          ADMISSION_PROBE_SKIP + ADMISSION_PROBE_QUERIES,
          ADMISSION_PROBE_MAX
      );
    }
    finally {
      run.stop();
    }
    return run.outcomes(o -> o.status() == 200 && o.index() > ADMISSION_PROBE_SKIP)
              .stream()
              .mapToDouble(BudgetLoad.Outcome::answeredShare)
              .filter(Double::isFinite)
              .average()
              .orElse(0);
  }

  /**
   * Response-time tracking through a 2× step in load (the budget paper's Figs 9-11) under control mode {@code mode}
   * ({@code INTEGRAL}, {@code ADAPTIVE} or {@link #HYBRID}): the Broker restarted with the datasource under control at
   * the calibrated target, the straggler throttled, N clients until {@link #MIN_INTERVALS_BEFORE_STEP} or more control
   * intervals have passed, then 2N. Leaves the straggler's CPU restored and the Broker as the run set it: call
   * {@link #restore} when done.
   */
  public ControlResult controlRun(String mode, Calibration calibration) throws Exception
  {
    final long targetMs = calibration.targetMs();
    final String prefix = settings.queryIdPrefix() + "control-" + mode.toLowerCase(Locale.ROOT) + "-";
    final LongFunction<BudgetLoad.Request> controlled = i -> new BudgetLoad.Request(
        NativeQuery.withContext(sizedQuery(dataset, i), Map.of("queryId", prefix + i)),
        true
    );
    cluster.setCpuQuota(straggler, settings.stragglerCores());
    try {
      cluster.restartBroker(controlProperties(dataset.dataSource(), targetMs, mode), BROKER_RESTART);
      final BudgetLoad run = new BudgetLoad(cluster, INTERVAL, state -> budgetAndEstimate(dataset.dataSource(), state));
      final int stepIndex;
      try {
        run.closedLoop(settings.clients(), controlled);
        run.awaitCompleted(mode + ": queries before the step", BEFORE_STEP_QUERIES,
                           phaseMax(BEFORE_STEP_MAX, MIN_INTERVALS_BEFORE_STEP, settings.clients(), targetMs));
        stepIndex = run.completed();
        run.closedLoop(settings.clients(), controlled);
        run.awaitCompleted(mode + ": queries after the step", stepIndex + AFTER_STEP_QUERIES,
                           phaseMax(AFTER_STEP_MAX, MIN_INTERVALS_AFTER_STEP, 2 * settings.clients(), targetMs));
      }
      finally {
        run.stop();
      }
      return ControlResult.of(mode, run, stepIndex, targetMs);
    }
    finally {
      restoreStraggler();
    }
  }

  /**
   * The Broker's properties on top of the cluster's for a control run: {@code dataSource} under control mode
   * {@code mode} at {@code targetMs}, without mature runs (they would add load the clients did not send).
   */
  static Map<String, String> controlProperties(String dataSource, long targetMs, String mode)
  {
    return Map.of(
        "druid.getafix.quality.controlledDataSources", "[\"" + dataSource + "\"]",
        "druid.getafix.quality.targetResponseTimeMs", String.valueOf(targetMs),
        "druid.getafix.quality.controlMode", mode,
        "druid.getafix.quality.matureSampleRate", "0"
    );
  }

  /**
   * Low-priority throughput at (about) equal high-priority answer quality (Ubora §8) under admission signal
   * {@code signal} ({@link #ANSWER_QUALITY}, {@link #PREDICTED_QUALITY} or {@link #TIMEOUT_RATE}, setpoint
   * {@link #ADMISSION_TARGET}; or
   * {@link #GRADIENT2}, Netflix concurrency-limits' Gradient2 starting at the offered concurrency, which has no
   * quality setpoint).
   * High-priority queries: closed-loop clients, each with a mature run (the quality-guided controller's samples; the
   * same load under every policy). Low-priority queries ({@code priority} −1): open-loop arrivals, so that a shed
   * query (HTTP 429) does not make its client send faster. All have the same fixed budget, the whole answers' p90
   * under the high-priority load alone, so that high-priority answers are mostly whole when the low-priority load is
   * shed and often cut when it is not. Leaves the straggler's CPU restored and the Broker as the run set it: call
   * {@link #restore} when done.
   */
  public AdmissionResult admissionRun(String signal, Calibration calibration) throws Exception
  {
    final long budgetMs = calibration.admissionBudgetMs();
    final String prefix = settings.queryIdPrefix() + "admission-" + signal.toLowerCase(Locale.ROOT) + "-";
    cluster.setCpuQuota(straggler, settings.stragglerCores());
    try {
      cluster.restartBroker(Map.of(
          "druid.getafix.quality.admission", signal,
          "druid.getafix.quality.admissionTarget", String.valueOf(ADMISSION_TARGET),
          "druid.getafix.quality.admissionWindowMs", String.valueOf(ADMISSION_CONTROL_WINDOW.toMillis()),
          // Gradient2 leaves its limit alone while fewer than half of it are in flight: it starts at the offered
          // concurrency, not at its default 20, which this load would never reach half of and so never move.
          "druid.getafix.quality.admissionGradientInitialLimit",
          String.valueOf(settings.clients() + settings.lowPriorityInFlight()),
          "druid.getafix.quality.matureSampleRate", "0",
          "druid.getafix.quality.maxMatureRuns", String.valueOf(settings.maxMatureRuns()),
          "druid.server.http.numThreads", String.valueOf(settings.brokerHttpThreads())
      ), BROKER_RESTART);
      final BudgetLoad run = new BudgetLoad(cluster, INTERVAL, BudgetExperiment::admitFractionAndSignal);
      try {
        run.closedLoop(settings.clients(), highPriority(budgetMs, prefix + "high-"));
        run.openLoop(lowPriorityPeriod(calibration), i -> new BudgetLoad.Request(
            NativeQuery.withContext(sizedQuery(dataset, i), Map.of(
                QueryContextKeys.BUDGET_MS, budgetMs,
                QueryContextKeys.MATURE, false,
                "priority", -1,
                "queryId", prefix + "low-" + i
            )),
            false
        ));
        run.awaitHighPriority(signal + ": high-priority queries", ADMISSION_HIGH_PRIORITY_QUERIES, ADMISSION_MAX);
      }
      finally {
        run.stop();
      }
      return AdmissionResult.of(signal, run, run.qualityState(), prefix);
    }
    finally {
      restoreStraggler();
    }
  }

  /** The admission runs' low-priority arrival period: {@code lowPriorityInFlight} in flight at the budget. */
  public Duration lowPriorityPeriod(Calibration calibration)
  {
    return Duration.ofMillis(Math.round(calibration.admissionBudgetMs() / (double) settings.lowPriorityInFlight()));
  }

  /** The admission runs' high-priority queries at {@code budgetMs}. */
  private LongFunction<BudgetLoad.Request> highPriority(long budgetMs, String queryIdPrefix)
  {
    return i -> new BudgetLoad.Request(
        NativeQuery.withContext(sizedQuery(dataset, i), Map.of(
            QueryContextKeys.BUDGET_MS, budgetMs,
            // Each gets a mature run, whose measured quality is the Ubora signal. Ubora sampled 20% of queries and
            // found its controller unreliable below 5-10% (Table II); two closed-loop clients send about one query
            // a second, so only sampling all of them puts a few samples in each ADMISSION_CONTROL_WINDOW. Under
            // every policy alike, so the load is the same.
            QueryContextKeys.MATURE, true,
            "queryId", queryIdPrefix + i
        )),
        true
    );
  }

  /** Gives the straggler back the cores it was started with, and the cluster the Broker it was started with. */
  public void restore() throws IOException, TimeoutException
  {
    restoreStraggler();
    cluster.restartBroker(Map.of(), BROKER_RESTART);
  }

  /** Gives the straggler its own CPU quota back; the Broker keeps the setting of the last run. */
  public void restoreStraggler()
  {
    cluster.setCpuQuota(straggler, cluster.config().cpuQuota(straggler));
  }

  /** The setup in words, for reports. */
  public String describe()
  {
    return String.format(
        Locale.ROOT,
        "%d Historicals capped at %s cores (cgroups %s), one replica per segment; %d hourly segments x %d rows; "
        + "timeseries over %d to %d hours, with a cardinality aggregator over every row; Historical %d throttled to "
        + "%s cores while measured; %d closed-loop clients, %d after the load step; admission target %s, %d "
        + "low-priority queries in flight at the admission budget, maxMatureRuns %d",
        cluster.historicals().size(),
        IntStream.range(0, cluster.historicals().size())
                 .mapToObj(i -> String.valueOf(cluster.config().cpuQuota(i)))
                 .collect(Collectors.joining("/")),
        cluster.cgroupsEnabled(), dataset.hours(), dataset.rowsPerHour(), minHours(dataset), dataset.hours(),
        straggler, settings.stragglerCores(), settings.clients(), 2 * settings.clients(), ADMISSION_TARGET,
        settings.lowPriorityInFlight(), settings.maxMatureRuns()
    );
  }

  /** The longer of a phase's usual bound and the time its fewest measurable intervals take at the target. */
  private static Duration phaseMax(Duration usual, int intervals, int clients, long targetMs)
  {
    final long atTarget = Math.round(PHASE_TIME_MARGIN * intervals * INTERVAL * targetMs / clients);
    return usual.compareTo(Duration.ofMillis(atTarget)) >= 0 ? usual : Duration.ofMillis(atTarget);
  }

  /**
   * What a control run reads from the quality endpoint's state every {@link #INTERVAL} completed queries: the budget
   * and the response-time estimate of {@code dataSource}'s controller.
   */
  static double[] budgetAndEstimate(String dataSource, JsonNode state)
  {
    final JsonNode controller = state.path("budgetControl").path(dataSource);
    return new double[]{
        controller.path("budgetMs").asDouble(Double.NaN),
        controller.path("responseTimeEstimateMs").asDouble(Double.NaN)
    };
  }

  /**
   * What an admission run reads from the quality endpoint's state every {@link #INTERVAL} completed queries: the
   * admitted low-priority share and the high-priority signal, or under GRADIENT2 its limit and the queries in flight.
   */
  private static double[] admitFractionAndSignal(JsonNode state)
  {
    final JsonNode admission = state.path("admission");
    if (admission.has("limit")) {
      return new double[]{admission.path("limit").asDouble(Double.NaN), admission.path("inFlight").asDouble(Double.NaN)};
    }
    return new double[]{
        admission.path("lowPriorityAdmitFraction").asDouble(Double.NaN),
        admission.path("highPrioritySignal").asDouble(Double.NaN)
    };
  }

  /**
   * Query {@code i}: the straggler query over {@link #hours} consecutive hours, from an offset that also cycles with
   * {@code i}.
   */
  static Map<String, Object> sizedQuery(SyntheticDataset dataset, long i)
  {
    return stragglerQuery(dataset, sizedInterval(dataset, i));
  }

  /** The interval of query {@code i}: {@link #hours} consecutive hours, from an offset that also cycles with it. */
  static String sizedInterval(SyntheticDataset dataset, long i)
  {
    final int hours = hours(dataset, i);
    final int offset = (int) ((i * 53) % (dataset.hours() - hours + 1));
    return dataset.interval(offset, offset + hours);
  }

  /**
   * An hourly timeseries over {@code interval} with a cardinality aggregator, which hashes every row: on a warm
   * cluster a count and two sums over a straggler's share take too little time to tell it from noise.
   */
  public static Map<String, Object> stragglerQuery(SyntheticDataset dataset, String interval)
  {
    return NativeQuery.timeseries(dataset.dataSource(), List.of(interval))
                      .granularity("hour")
                      .count("rows")
                      .longSum("added", "added")
                      .cardinality("distinctRows", List.of("page", "country", "user"), true)
                      .toMap();
  }

  /**
   * How many hours query {@code i} reads: 10 (or all of a smaller dataset) to all of them, stepping through that range
   * by {@link #sizeStride} so that any 10 consecutive queries mix small and large ones.
   */
  static int hours(SyntheticDataset dataset, long i)
  {
    final int sizes = sizes(dataset);
    return minHours(dataset) + (int) ((i * sizeStride(sizes)) % sizes);
  }

  /** How many sizes {@link #hours} steps through: any {@code sizes} consecutive queries read each size once. */
  static int sizes(SyntheticDataset dataset)
  {
    return dataset.hours() - minHours(dataset) + 1;
  }

  private static int minHours(SyntheticDataset dataset)
  {
    return Math.min(MIN_HOURS, dataset.hours());
  }

  /**
   * The step between consecutive sizes out of {@code sizes}: 37 of the 91 of a 100-hour dataset, about 0.4 of them
   * (near the golden section, so consecutive sizes land far apart), the same share of another dataset's, made coprime
   * with their number so that every size comes in turn.
   */
  static int sizeStride(int sizes)
  {
    int stride = Math.max(1, (int) Math.round(sizes * 37.0 / 91));
    while (gcd(stride, sizes) != 1) {
      stride++;
    }
    return stride;
  }

  private static int gcd(int a, int b)
  {
    return b == 0 ? a : gcd(b, a % b);
  }

  static double mean(double[] values)
  {
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return values.length == 0 ? Double.NaN : sum / values.length;
  }

  /** The 99th percentile (nearest rank) of {@code sorted}, in ascending order; NaN if empty. */
  static double p99(double[] sorted)
  {
    return sorted.length == 0 ? Double.NaN : sorted[(int) Math.ceil(0.99 * sorted.length) - 1];
  }
}
