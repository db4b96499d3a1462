package org.getafix.it.quality;

import org.getafix.it.cluster.DruidClusterExtension;
import org.getafix.it.cluster.SharedDruidCluster;
import org.getafix.it.getafix.GetafixItCluster;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.experiment.AdmissionResult;
import org.getafix.localcluster.experiment.BudgetExperiment;
import org.getafix.localcluster.experiment.ControlResult;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import static org.getafix.localcluster.experiment.BudgetExperiment.ADMISSION_TARGET;
import static org.getafix.localcluster.experiment.BudgetExperiment.ANSWER_QUALITY;
import static org.getafix.localcluster.experiment.BudgetExperiment.HYBRID;
import static org.getafix.localcluster.experiment.BudgetExperiment.MIN_INTERVALS_AFTER_STEP;
import static org.getafix.localcluster.experiment.BudgetExperiment.MIN_INTERVALS_BEFORE_STEP;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Live measurements 3 and 4 of the quality monitor on the shared live cluster ({@link BudgetExperiment}, which
 * {@code ./getafix bench live} repeats): the budget controller and the admission controller, each on a Broker restarted
 * with the setting under test, with one Historical throttled to a straggler (restored after each). The
 * response-time target and the admission budget are calibrated once, before both, and the Broker is restored once,
 * after both.
 * <ul>
 *   <li><b>Measurement 3, controller</b> ({@link #measurement3HybridControlTracksTheTargetThroughATwofoldLoadStep}):
 *   hybrid control, the default, whose tracking is asserted, through a 2× load step.</li>
 *   <li><b>Measurement 4, admission</b> ({@link #measurement4QualityGuidedAdmissionShedsOnlyLowPriorityQueries}):
 *   the quality-guided admission controller. It is compared with the timeout-rate-guided one by the bench, not
 *   here; {@link BudgetedQueryIT} checks that the latter sheds.</li>
 * </ul>
 * Writes the figures to {@code integration-tests/target/budget-control.json}.
 */
@ExtendWith(DruidClusterExtension.class)
class BudgetControlIT
{
  private static final SyntheticDataset DATASET = GetafixItCluster.DATASET;
  private static final int STRAGGLER = GetafixItCluster.STRONG;
  /** Generous bound on the hybrid controller's late-window mean response time after the step, as a share of target. */
  private static final double HYBRID_TRACKING_MARGIN = 0.3;
  private static final Map<String, Object> FIGURES = new LinkedHashMap<>();

  private static BudgetExperiment experiment;
  private static BudgetExperiment.Calibration calibration;

  @BeforeAll
  static void cluster() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(GetafixItCluster.config());
    SharedDruidCluster.ensureIngested(DATASET);
    experiment = new BudgetExperiment(cluster, DATASET, STRAGGLER, BudgetExperiment.Settings.standard("it-"));
    FIGURES.put("segmentsOnStraggler", experiment.placeOneReplicaEach());
    calibration = experiment.calibrate();
    FIGURES.put("calibration", calibration.figures());
    assertTrue(calibration.enoughAnswers(), "too few calibration answers: " + calibration.figures());
    assertTrue(calibration.slowEnough(), "the straggler does not make whole answers slow enough to control: "
                                         + calibration.figures());
  }

  @AfterAll
  static void restoreTheBrokerAndWriteFigures() throws IOException, TimeoutException
  {
    if (experiment != null) {
      experiment.restore();
    }
    if (!FIGURES.isEmpty()) {
      GetafixItCluster.writeFigures("budget-control.json", "budget control and admission", FIGURES);
    }
  }

  /**
   * Measurement 3 (budget paper Figs 9-11): response-time tracking of hybrid control through a 2× step in load, as
   * {@link ControlResult} counts it.
   */
  @Test
  void measurement3HybridControlTracksTheTargetThroughATwofoldLoadStep() throws Exception
  {
    final Map<String, Object> figures = new LinkedHashMap<>();
    FIGURES.put("measurement3", figures);
    figures.put("targetMs", calibration.targetMs());
    figures.put("clientsBeforeStep", BudgetExperiment.CLIENTS);
    figures.put("clientsAfterStep", 2 * BudgetExperiment.CLIENTS);
    final String mode = HYBRID;
    final ControlResult result;
    try {
      result = experiment.controlRun(mode, calibration);
      figures.put(mode, result.figures());
    }
    finally {
      experiment.restoreStraggler();
    }

    assertAll(
        () -> assertEquals(0, result.failed(), mode + ": controller-budgeted queries failed: " + result.figures()),
        () -> assertEquals(0, result.unbudgeted(), mode + ": queries without coverage, i.e. not budgeted by the controller"),
        () -> assertTrue(result.intervalsBefore() >= MIN_INTERVALS_BEFORE_STEP
                         && result.intervalsAfter() >= MIN_INTERVALS_AFTER_STEP,
                         mode + ": too few control intervals to measure: " + result.figures()),
        () -> assertTrue(result.budgetAfter() < result.budgetBefore(),
                         mode + ": the budget did not fall after the load doubled: " + result.figures()),
        () -> assertTrue(Math.abs(result.rtErrorAfter()) <= HYBRID_TRACKING_MARGIN,
                         "hybrid control: late-window mean response time off target by " + result.rtErrorAfter()
                         + ": " + result.figures())
    );
  }

  /**
   * Measurement 4 (Ubora §8): admission guided by high-priority answer quality, as {@link BudgetExperiment#admissionRun}
   * runs it: it admits low-priority queries, sheds none of high priority, and high-priority queries keep to about their
   * budget. The quality of an hourly timeseries answer is its answered share of segments (as {@link BudgetedQueryIT}
   * checks against the mature runs).
   */
  @Test
  void measurement4QualityGuidedAdmissionShedsOnlyLowPriorityQueries() throws Exception
  {
    final long admissionBudgetMs = calibration.admissionBudgetMs();
    final Map<String, Object> figures = new LinkedHashMap<>();
    FIGURES.put("measurement4", figures);
    figures.put("budgetMs", admissionBudgetMs);
    figures.put("admissionTarget", ADMISSION_TARGET);
    figures.put("highPriorityClients", BudgetExperiment.CLIENTS);
    figures.put("lowPriorityArrivalsPerSecond", 1000.0 / experiment.lowPriorityPeriod(calibration).toMillis());
    final AdmissionResult result;
    try {
      result = experiment.admissionRun(ANSWER_QUALITY, calibration);
      figures.put(ANSWER_QUALITY, result.figures());
    }
    finally {
      experiment.restoreStraggler();
    }
    assertAll(
        () -> assertEquals(0, result.highPriorityShed(), "a high-priority query was shed: " + result.figures()),
        () -> assertEquals(0, result.highPriorityFailed(), "high-priority queries failed: " + result.figures()),
        () -> assertTrue(result.highPriorityMeanMillis() <= 2 * admissionBudgetMs,
                         "high-priority queries took far longer than their budget, i.e. queued on the Broker before "
                         + "it: " + result.figures()),
        () -> assertEquals(result.lowPriorityShed(), result.shedByBroker(),
                           "the Broker shed other queries than the low-priority ones: " + result.figures()),
        () -> assertTrue(result.lowPriorityAdmitted() > 0, "no low-priority query was admitted: " + result.figures())
    );
  }
}
