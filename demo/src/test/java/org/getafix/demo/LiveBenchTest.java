package org.getafix.demo;

import org.getafix.core.redundancy.SubQuerySplit;
import org.getafix.localcluster.experiment.LaningWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LiveBenchTest
{
  @Test
  void everyExperimentRunsUnlessAskedAndTheRestAreThePlacementOptions()
  {
    final LiveBench.Options all = LiveBench.Options.parse("--quick", "--repetitions", "4");
    assertEquals(LiveBench.EXPERIMENTS, all.experiments());
    assertTrue(all.options().quick());
    assertEquals(4, all.options().repetitions());

    assertEquals(
        List.of(
            "placement", "routing", "budgeted", "hedged", "hedged-getafix", "control", "control-queueing", "admission",
            "replay", "laning", "kill", "churn", "overhead"
        ),
        LiveBench.EXPERIMENTS
    );
    final LiveBench.Options chosen = LiveBench.Options.parse("--experiments", "admission,routing,placement,routing");
    assertEquals(List.of("placement", "routing", "admission"), chosen.experiments(), "in the bench's order, once each");
    assertEquals(List.of("control"), LiveBench.Options.parse("--experiments", "Control").experiments());
    assertEquals(
        List.of("control", "control-queueing"),
        LiveBench.Options.parse("--experiments", "control-queueing,control").experiments()
    );
    assertEquals(
        List.of("admission", "replay"),
        LiveBench.Options.parse("--experiments", "replay,admission").experiments()
    );
    assertEquals(3, chosen.options().repetitions(), "the bench's default");
  }

  @Test
  void theLaningExperimentsBudgetSplitIsNoneUnlessAskedAndOneTheBrokerKnows()
  {
    assertEquals("NONE", LiveBench.Options.parse("--experiments", "laning").budgetSplit());
    assertEquals("EQ_RESV", LiveBench.Options.parse("--experiments", "laning", "--budget-split", "eq_resv").budgetSplit());
    assertEquals("MAX_QUALITY", LiveBench.Options.parse("--budget-split", "MAX_QUALITY").budgetSplit());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--budget-split", "minmrt"))
                   .getMessage().contains("NONE,EQ_RESV,MAX_QUALITY"));
    assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--budget-split"));
  }

  @Test
  void theLaningWorkloadIsHourlyUnlessAskedAndOneTheExperimentKnows()
  {
    assertEquals(LaningWorkload.HOURLY, LiveBench.Options.parse("--experiments", "laning").laningWorkload());
    assertEquals(
        LaningWorkload.CONCAVE,
        LiveBench.Options.parse("--experiments", "laning", "--laning-workload", "concave").laningWorkload()
    );
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--laning-workload", "topn"))
                   .getMessage().contains("hourly,concave"));
    assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--laning-workload"));
  }

  @Test
  void theLaningExperimentSplitsSubQueriesWhenLateUnlessAskedToSplitAlways()
  {
    assertEquals(SubQuerySplit.Trigger.LATE, LiveBench.Options.parse("--experiments", "laning").splitWhen());
    assertEquals(
        SubQuerySplit.Trigger.ALWAYS,
        LiveBench.Options.parse("--experiments", "laning", "--split-when", "always").splitWhen()
    );
    assertEquals(SubQuerySplit.Trigger.LATE, LiveBench.Options.parse("--split-when", " LATE ").splitWhen());
    assertEquals(
        "unknown --split-when value sometimes; choose from LATE,ALWAYS",
        assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--split-when", "sometimes"))
            .getMessage()
    );
    assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--split-when"));
    assertTrue(LiveBench.USAGE.contains("--split-when"), LiveBench.USAGE);
  }

  @Test
  void badExperimentsAreRefusedInWords()
  {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--experiments", "hedging"))
                   .getMessage()
                   .contains("placement,routing,budgeted,hedged,hedged-getafix,control,control-queueing,admission,replay,laning,kill"));
    assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--experiments"));
    assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--keep-running"));
  }

  @Test
  void onAnExistingClusterOnlyTheBudgetedExperimentsRunOverTheNamedDatasource()
  {
    final LiveBench.Options existing =
        LiveBench.Options.parse("--broker", "http://broker:8082", "--datasource", "wikipedia", "--quick");
    assertEquals(LiveBench.ON_EXISTING, existing.experiments(), "budgeted and hedged by default");
    assertEquals(URI.create("http://broker:8082"), existing.existing().broker());
    assertEquals("wikipedia", existing.existing().dataSource());
    assertNull(existing.existing().targetMs(), "T from the cluster's own answer");
    assertTrue(existing.options().quick());
    assertEquals(
        750L,
        LiveBench.Options.parse("--broker", "http://b:8082", "--datasource", "w", "--target-ms", "750").existing().targetMs()
    );
    assertEquals(
        List.of("hedged"),
        LiveBench.Options.parse("--broker", "http://b:8082", "--datasource", "w", "--experiments", "hedged").experiments()
    );
    assertNull(LiveBench.Options.parse("--quick").existing(), "without --broker each experiment starts its own cluster");
  }

  @Test
  void anExistingClusterRefusesWhatItCannotRunInWords()
  {
    final String unable = assertThrows(
        IllegalArgumentException.class,
        () -> LiveBench.Options.parse("--broker", "http://b:8082", "--datasource", "w", "--experiments", "routing,hedged")
    ).getMessage();
    assertTrue(unable.startsWith("routing cannot run on an existing cluster"), unable);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--broker", "http://b:8082"))
                   .getMessage().contains("--datasource"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--datasource", "w"))
                   .getMessage().contains("need --broker"));
    assertTrue(assertThrows(
        IllegalArgumentException.class,
        () -> LiveBench.Options.parse("--broker", "broker:8082", "--datasource", "w")
    ).getMessage().contains("http(s) URL"));
    assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--broker", "http://b:8082", "--datasource", "w", "--target-ms", "0"));
    assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--broker", "http://b:8082", "--datasource", "w", "--target-ms", "soon"));
    assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--broker", "http://b:8082", "--datasource", " "));
    assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--broker"));
  }

  @Test
  void theIndexLinksEachExperimentAndSaysWhichFailed(@TempDir Path dir) throws Exception
  {
    final LiveBench.Options options = LiveBench.Options.parse("--experiments", "routing,budgeted");
    final String index = Files.readString(
        LiveBench.writeIndex(dir, options, Map.of("budgeted", "java.util.concurrent.TimeoutException: calibration"))
    );
    assertTrue(index.contains("href=\"routing/report.html\""), index);
    assertFalse(index.contains("href=\"budgeted/report.html\""), "a failed experiment has no report to link");
    assertTrue(index.contains("budgeted: <b>failed</b>, java.util.concurrent.TimeoutException: calibration"), index);
  }
}
