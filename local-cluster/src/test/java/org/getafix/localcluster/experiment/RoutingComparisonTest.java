package org.getafix.localcluster.experiment;

import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RoutingComparisonTest
{
  @Test
  void theSetupInWordsNamesEverySetting()
  {
    final RoutingComparison.Settings settings = new RoutingComparison.Settings(
        0, 0.5, 0.1, 4, 7L, JitCompilerCpu.WarmUp.WORKLOAD, Duration.ofSeconds(15), Duration.ofSeconds(40)
    );
    assertEquals(
        "3 Historicals capped at 0.5 cores each (cgroups true), every segment on all of them; 100 hourly segments x "
        + "5000 rows; QueryMix.defaultMix, 4 closed-loop clients, seed 7; once, workload until no Historical's JIT "
        + "compilers took more than 10% of its CPU over 20 s (at most 300 s); per phase a Broker restart, 15 s of "
        + "warm-up on equal Historicals, then 40 s measured with Historical 0 throttled to 0.1 cores",
        RoutingComparison.describe(3, true, SyntheticDataset.hourly("routing", 100, 5_000), settings)
    );
  }
}
