package org.getafix.localcluster.experiment;

import org.getafix.localcluster.workload.SyntheticDataset;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BudgetExperimentTest
{
  @Test
  void theHundredHourDatasetKeepsItsSizesAndEverySmallerOneGetsAllOfItsOwn()
  {
    assertEquals(37, BudgetExperiment.sizeStride(91), "10 to 100 hours step by 37");
    for (int hours : List.of(100, 48, 24, 10, 3)) {
      final SyntheticDataset dataset = SyntheticDataset.hourly("ds", hours, 10);
      final int sizes = hours - Math.min(10, hours) + 1;
      final Set<Integer> seen = LongStream.range(0, sizes)
                                          .mapToObj(i -> BudgetExperiment.hours(dataset, i))
                                          .collect(Collectors.toCollection(TreeSet::new));
      assertEquals(sizes, seen.size(), hours + " hours: every size in one cycle: " + seen);
      assertEquals(Math.min(10, hours), ((TreeSet<Integer>) seen).first());
      assertEquals(hours, ((TreeSet<Integer>) seen).last());
    }
  }

  @Test
  void anyTenConsecutiveQueriesOfTheQuickDatasetMixSmallAndLargeOnes()
  {
    final SyntheticDataset dataset = SyntheticDataset.hourly("ds", 48, 10);
    for (long start = 0; start < 100; start++) {
      final List<Integer> hours = LongStream.range(start, start + 10)
                                            .mapToObj(i -> BudgetExperiment.hours(dataset, i))
                                            .toList();
      assertTrue(hours.stream().anyMatch(h -> h < 20) && hours.stream().anyMatch(h -> h > 38), hours.toString());
    }
  }

  @Test
  void aQueryStaysInsideTheDataset()
  {
    final SyntheticDataset dataset = SyntheticDataset.hourly("ds", 48, 10);
    for (long i = 0; i < 200; i++) {
      final Map<String, Object> query = BudgetExperiment.sizedQuery(dataset, i);
      final String[] interval = ((List<?>) query.get("intervals")).get(0).toString().split("/");
      assertTrue(interval[0].compareTo(dataset.interval().split("/")[0]) >= 0, interval[0]);
      assertTrue(interval[1].compareTo(dataset.interval().split("/")[1]) <= 0, interval[1]);
    }
  }

  @Test
  void settlingCountsTheIntervalsUntilTheEstimateStaysInTheBand()
  {
    final List<double[]> after = List.of(estimate(1500), estimate(1040), estimate(1100), estimate(990), estimate(1010));
    assertEquals(3, ControlResult.settlingIntervals(after, 0.05, 1000));
    assertEquals(0, ControlResult.settlingIntervals(after.subList(3, 5), 0.05, 1000), "never left the band");
    assertNull(ControlResult.settlingIntervals(after.subList(0, 3), 0.05, 1000), "outside at the end: not settled");
  }

  private static double[] estimate(double millis)
  {
    return new double[]{Double.NaN, Double.NaN, millis, Double.NaN};
  }

  @Test
  void theAdmissionBudgetProbeStartsAtTheP90AndGrowsByAQuarter()
  {
    assertEquals(List.of(400L, 500L, 630L, 780L, 980L, 1220L), BudgetExperiment.admissionBudgets(400));
    assertEquals(10L, BudgetExperiment.admissionBudgets(0).get(0), "never a zero budget, which a Broker refuses");
  }

  @Test
  void aProbedAdmissionBudgetSaysWhatEachProbeMeasured()
  {
    final BudgetExperiment.Calibration calibration =
        new BudgetExperiment.Calibration(300, 500, true, true, Map.of());
    final BudgetExperiment.ProbedAdmissionBudget probed = new BudgetExperiment.ProbedAdmissionBudget(
        calibration,
        List.of(new BudgetExperiment.AdmissionBudgetProbe(400, 0.871), new BudgetExperiment.AdmissionBudgetProbe(500, 0.962))
    );
    assertEquals(
        "admission budget 500 ms (the high-priority queries alone: quality 0.871 at 400 ms, quality 0.962 at 500 ms)",
        probed.describe()
    );
  }

  @Test
  void anAdmissionRunGivesTheBrokerTwoHttpThreadsPerQueryInFlightAndNeverFewerThanTheLaunchers()
  {
    assertEquals(16, new BudgetExperiment.Settings(0.1, 2, 4, 8, "x-").brokerHttpThreads(), "the launcher's 16");
    assertEquals(20, BudgetExperiment.Settings.standard("x-").brokerHttpThreads(), "2 clients and 8 in flight");
    assertEquals(36, new BudgetExperiment.Settings(0.1, 2, 16, 8, "x-").brokerHttpThreads());
    assertThrows(IllegalArgumentException.class, () -> new BudgetExperiment.Settings(0.1, 2, 0, 8, "x-"));
  }

  @Test
  void theStandardSettingsKeepTheQualityMonitorsMatureRunsAndNoneCanBeZero()
  {
    assertEquals(8, BudgetExperiment.Settings.standard("x-").maxMatureRuns());
    assertThrows(IllegalArgumentException.class, () -> new BudgetExperiment.Settings(0.1, 2, 4, 0, "x-"));
  }
}
