package org.getafix.localcluster.experiment;

import org.getafix.core.redundancy.SubQuerySplit;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The quality monitor's budget controller on a plant that queues, the budget paper's load-step experiment (Figs 9-11)
 * as the paper ran it: open-loop Poisson arrivals at λ, then 2λ ({@link ArrivalSchedule}), on Historicals at their
 * normal caps with no straggler, the response time measured by the clients ({@link ClientControlResult}). With a
 * straggler and closed-loop clients ({@link BudgetExperiment#controlRun}) the response time is about the budget once
 * the straggler's share is cut, whatever the load; here the Historicals' queues, and so a query's response time at a
 * given budget, grow with the arrival rate, and past capacity grow without bound.
 *
 * <p>The workload is {@link BudgetExperiment}'s hourly timeseries, one replica per segment, placed and probed as
 * {@link LaningExperiment} does: whole answers at 1, 2, 3, ... closed-loop clients give T (3× the mean alone) and the
 * capacity for whole answers, and λ is {@link QueueingCalibration#LOAD_BEFORE_STEP} of that capacity
 * ({@link QueueingCalibration}), so that after the step whole answers would queue past T within seconds.
 *
 * @param cluster  the cluster, with {@code dataset} ingested
 * @param dataset  the hourly dataset the queries read
 * @param settings how the experiment runs
 */
public record QueueingControlExperiment(LocalDruidCluster cluster, SyntheticDataset dataset, Settings settings)
{
  /**
   * Phases run at least this many times the time their fewest measured intervals take at their arrival rate, so that
   * a slower machine, which calibrates a lower rate, still gets them.
   */
  static final double PHASE_TIME_MARGIN = 2;
  /** Intervals after the step: the 10 the goal allows for settling, and as many again to measure the error on. */
  static final int MIN_INTERVALS_AFTER_STEP = 20;
  private static final Duration BROKER_RESTART = Duration.ofMinutes(10);

  /**
   * How the experiment runs.
   *
   * @param beforeStep    time at λ: the controller's lead-in from the Broker's restart, at least
   *                      {@link BudgetExperiment#MIN_INTERVALS_BEFORE_STEP} intervals
   * @param afterStep     time at 2λ, at least {@link #MIN_INTERVALS_AFTER_STEP} intervals
   * @param quick         fewer whole answers per probe level ({@link LaningExperiment.Settings#standard})
   * @param queryIdPrefix the start of every query's id, which tells whose queries they are in the Broker's logs
   */
  public record Settings(Duration beforeStep, Duration afterStep, boolean quick, String queryIdPrefix)
  {
    /** The bench's: 30 s at λ, 60 s at 2λ; quick: 15 s and 30 s. */
    public static Settings standard(boolean quick, String queryIdPrefix)
    {
      return quick
             ? new Settings(Duration.ofSeconds(15), Duration.ofSeconds(30), true, queryIdPrefix)
             : new Settings(Duration.ofSeconds(30), Duration.ofSeconds(60), false, queryIdPrefix);
    }

    /** Run {@code seed}'s arrivals: the phases' times, each lengthened to its fewest intervals if need be. */
    public ArrivalSchedule schedule(QueueingCalibration calibration, long seed)
    {
      final long before = phaseMillis(beforeStep, BudgetExperiment.MIN_INTERVALS_BEFORE_STEP,
                                      calibration.ratePerSecond());
      final long after = phaseMillis(afterStep, MIN_INTERVALS_AFTER_STEP, calibration.rateAfterStep());
      return new ArrivalSchedule(calibration.ratePerSecond(), before, before + after, seed);
    }

    /** The longer of {@code usual} and {@link #PHASE_TIME_MARGIN} times {@code intervals}' answers at the rate. */
    static long phaseMillis(Duration usual, int intervals, double perSecond)
    {
      final long needed = Math.round(PHASE_TIME_MARGIN * intervals * BudgetExperiment.INTERVAL / perSecond * 1000);
      return Math.max(usual.toMillis(), needed);
    }
  }

  /**
   * The placement and the whole-answer probe: the laning experiment's, on this cluster and data, with its hourly
   * workload, whose queries are {@link BudgetExperiment#sizedQuery}'s as the control runs'.
   */
  private LaningExperiment probing()
  {
    return new LaningExperiment(
        cluster,
        dataset,
        LaningExperiment.Settings.standard(settings.quick(), LaningExperiment.BUDGET_SPLIT_NONE,
                                           SubQuerySplit.Trigger.LATE, LaningWorkload.HOURLY,
                                           settings.queryIdPrefix())
    );
  }

  /** One replica per segment, placed by stock Druid ({@link LaningExperiment#placeOneReplicaEach}); per Historical. */
  public Map<String, Long> placeOneReplicaEach() throws Exception
  {
    return probing().placeOneReplicaEach();
  }

  /**
   * Warms the JIT compilers up and probes whole answers at 1, 2, 3, ... clients ({@link LaningExperiment#calibrate});
   * the probe is also returned, for the report.
   */
  public ConcurrencyProbe probe() throws Exception
  {
    return probing().calibrate().probe();
  }

  /**
   * One run through the step: the Broker restarted with the datasource under hybrid control at T, then run
   * {@code seed}'s Poisson arrivals of queries without a budget of their own, the controller's budget read every
   * control interval.
   */
  public ClientControlResult controlRun(QueueingCalibration calibration, long seed) throws Exception
  {
    final ArrivalSchedule schedule = settings.schedule(calibration, seed);
    final String prefix = settings.queryIdPrefix() + "queueing-" + seed + "-";
    cluster.restartBroker(
        BudgetExperiment.controlProperties(dataset.dataSource(), calibration.targetMillis(), BudgetExperiment.HYBRID),
        BROKER_RESTART
    );
    final BudgetLoad run = new BudgetLoad(
        cluster,
        BudgetExperiment.INTERVAL,
        state -> BudgetExperiment.budgetAndEstimate(dataset.dataSource(), state)
    );
    try {
      run.scheduled(schedule.arrivalMillis(), i -> new BudgetLoad.Request(
          NativeQuery.withContext(BudgetExperiment.sizedQuery(dataset, i), Map.of("queryId", prefix + i)),
          true
      ));
      run.awaitCompleted("run " + seed + "'s arrivals", Integer.MAX_VALUE, Duration.ofMillis(schedule.endMillis()));
    }
    finally {
      run.stop();
    }
    return ClientControlResult.of(
        run.outcomes(o -> true),
        run.snapshots(),
        schedule.stepMillis(),
        schedule.endMillis(),
        calibration.targetMillis()
    );
  }

  /** The setup in words, for reports. */
  public String describe()
  {
    return String.format(
        Locale.ROOT,
        "%d Historicals capped at %s cores (cgroups %s), no straggler, one replica per segment; %d hourly segments x "
        + "%d rows; timeseries over %d to %d hours, with a cardinality aggregator over every row; open-loop Poisson "
        + "arrivals at a rate, then %.0fx it; hybrid budget control; response times measured by the clients",
        cluster.historicals().size(),
        IntStream.range(0, cluster.historicals().size())
                 .mapToObj(i -> String.valueOf(cluster.config().cpuQuota(i)))
                 .collect(Collectors.joining("/")),
        cluster.cgroupsEnabled(), dataset.hours(), dataset.rowsPerHour(),
        BudgetExperiment.hours(dataset, 0), dataset.hours(), ArrivalSchedule.STEP_FACTOR
    );
  }

  /** Whole answers per level of {@code probe}, for reports. */
  public static List<String> levels(ConcurrencyProbe probe)
  {
    return probe.levels()
                .stream()
                .map(l -> String.format(Locale.ROOT, "%d clients: %.0f ms, %.1f/s", l.clients(), l.meanMillis(),
                                        l.perSecond()))
                .toList();
  }
}
