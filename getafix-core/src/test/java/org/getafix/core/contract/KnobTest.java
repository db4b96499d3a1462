package org.getafix.core.contract;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KnobTest
{
  @Test
  void aBadValueIsNamedInTheOneFormat()
  {
    assertEquals("gamma must be in [0, 1], got [1.5]", PlacementKnobs.GAMMA.problem(1.5));
    assertEquals("gamma must be in [0, 1], got [NaN]", PlacementKnobs.GAMMA.problem(Double.NaN));
    assertEquals("minReplicas must be >= 1, got [0]", PlacementKnobs.MIN_REPLICAS.problem(0));
    assertEquals("decay must be in [0, 1), got [1.0]", PlacementKnobs.POPULARITY_DECAY.problemAs("decay", 1.0));
    assertEquals(
        "roundPeriod must be in [PT1S, PT1H], got [PT0.1S]",
        PlacementKnobs.ROUND_PERIOD.problem(Duration.ofMillis(100))
    );
    assertEquals(
        "druid.getafix.quality.maxBudgetMs must be > 0, got [0]",
        QualityKnobs.MAX_BUDGET_MS.problem(0L)
    );
    assertEquals(
        "druid.getafix.quality.controlledLanes must be a list of lane names, got [[]]",
        QualityKnobs.CONTROLLED_LANES.problem(List.of(""))
    );
    final IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> QualityKnobs.ADMISSION_TARGET.check(0.0));
    assertEquals("druid.getafix.quality.admissionTarget must be in (0, 1], got [0.0]", e.getMessage());
  }

  @Test
  void aGoodValueHasNoProblem()
  {
    assertNull(PlacementKnobs.GAMMA.problem(0.0));
    assertNull(PlacementKnobs.GAMMA.problem(1.0));
    assertNull(PlacementKnobs.CAPACITY_SMOOTHING.problem(1.0));
    assertNull(PlacementKnobs.ROUND_PERIOD.problem(Duration.ofSeconds(1)));
    assertEquals(0.5, PlacementKnobs.POPULARITY_DECAY.check(0.5));
  }

  @Test
  void boundsBetweenTwoKnobs()
  {
    assertNull(PlacementKnobs.maxReplicasProblem(2, 2));
    assertEquals("maxReplicas must be >= minReplicas [4], got [2]", PlacementKnobs.maxReplicasProblem(4, 2));
    assertEquals(
        "druid.getafix.quality.maxBudgetMs must be >= druid.getafix.quality.minBudgetMs [20], got [10]",
        QualityKnobs.budgetBoundsProblem(20, 10)
    );
  }

  @Test
  void intervalsReadAsPeopleWriteThem()
  {
    assertEquals("in [0, 1]", Interval.closed(0, 1).toString());
    assertEquals("in [0, 1)", Interval.closedOpen(0, 1).toString());
    assertEquals("in (0, 0.5]", Interval.openClosed(0, 0.5).toString());
    assertEquals(">= 1", Interval.atLeast(1).toString());
    assertEquals("> 0", Interval.above(0).toString());
    assertFalse(Interval.atLeast(0).contains(Double.POSITIVE_INFINITY));
  }

  @Test
  void aDefaultOutsideItsRangeIsRefused()
  {
    assertThrows(IllegalArgumentException.class, () -> Knob.number("x", 2, Interval.closed(0, 1), "doc"));
  }

  /** The contract is the leaf every other package reads: it imports no other getafix-core package. */
  @Test
  void theContractDependsOnNoOtherPackage() throws IOException
  {
    try (Stream<Path> sources = Files.list(Path.of("src/main/java/org/getafix/core/contract"))) {
      for (Path source : sources.toList()) {
        for (String line : Files.readAllLines(source)) {
          if (line.startsWith("import ")) {
            assertTrue(line.startsWith("import java."), source + ": " + line);
          }
        }
      }
    }
  }
}
