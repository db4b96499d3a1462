package org.getafix.demo;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    assertEquals(List.of("placement", "routing", "budgeted", "control", "admission"), LiveBench.EXPERIMENTS);
    final LiveBench.Options chosen = LiveBench.Options.parse("--experiments", "admission,routing,placement,routing");
    assertEquals(List.of("placement", "routing", "admission"), chosen.experiments(), "in the bench's order, once each");
    assertEquals(List.of("control"), LiveBench.Options.parse("--experiments", "Control").experiments());
    assertEquals(3, chosen.options().repetitions(), "the bench's default");
  }

  @Test
  void badExperimentsAreRefusedInWords()
  {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--experiments", "hedging"))
                   .getMessage().contains("placement,routing,budgeted,control,admission"));
    assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--experiments"));
    assertThrows(IllegalArgumentException.class, () -> LiveBench.Options.parse("--keep-running"));
  }
}
