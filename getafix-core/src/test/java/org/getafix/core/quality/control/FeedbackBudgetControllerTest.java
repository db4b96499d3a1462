package org.getafix.core.quality.control;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FeedbackBudgetControllerTest
{
  private static BudgetControlConfig config(BudgetControlConfig.Mode mode)
  {
    return BudgetControlConfig.of(mode, ResponseTimeEstimator.Kind.MEAN, 100, 5, 500, 50);
  }

  @Test
  void invalidSettingsFailAtConstructionWithTheirName()
  {
    final BudgetControlConfig.Mode h = BudgetControlConfig.Mode.HYBRID;
    final ResponseTimeEstimator.Kind m = ResponseTimeEstimator.Kind.MEAN;
    assertMessage("targetMillis", () -> BudgetControlConfig.of(h, m, Double.NaN, 1, 10, 5));
    assertMessage("targetMillis", () -> BudgetControlConfig.of(h, m, -1, 1, 10, 5));
    assertMessage("minBudget", () -> BudgetControlConfig.of(h, m, 10, 0, 10, 5));
    assertMessage("maxBudget", () -> BudgetControlConfig.of(h, m, 10, 5, 4, 5));
    assertMessage("initialBudget", () -> BudgetControlConfig.of(h, m, 10, 1, 10, 11));
    assertMessage("initialBudget", () -> BudgetControlConfig.of(h, m, 10, 1, 10, Double.NaN));
    assertMessage("integralGain", () -> BudgetControlConfig.of(h, m, 10, 1, 10, 5).withIntegralGain(-1));
    assertMessage("mode", () -> BudgetControlConfig.of(null, m, 10, 1, 10, 5));
    assertMessage("responseCeiling", () -> BudgetControlConfig.of(h, m, 10, 1, 10, 5).withResponseCeiling(0.5));
    assertMessage("alpha", () -> new EwmaResponseTime(0));
    assertMessage("window", () -> new WindowPercentileResponseTime(5, 90));
    assertMessage("percentile", () -> new WindowPercentileResponseTime(1000, 0));
  }

  private static void assertMessage(String fragment, org.junit.jupiter.api.function.Executable executable)
  {
    final IllegalArgumentException error = assertThrows(IllegalArgumentException.class, executable);
    assertTrue(error.getMessage().contains(fragment), error.getMessage());
  }

  @Test
  void garbageResponseTimesAreIgnoredNotThrown()
  {
    for (BudgetControlConfig.Mode mode : BudgetControlConfig.Mode.values()) {
      final FeedbackBudgetController controller = new FeedbackBudgetController(config(mode));
      for (double garbage : new double[]{Double.NaN, -1, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
        for (int i = 0; i < 25; i++) {
          controller.onResponse(garbage);
        }
      }
      assertEquals(100, controller.rejectedResponses());
      assertEquals(50, controller.budget(), 0, "garbage must not move the budget");
      assertTrue(Double.isNaN(controller.responseTimeEstimate()));
    }
  }

  @Test
  void theBudgetStaysWithinItsBoundsAndDoesNotWindUp()
  {
    // Idle: every query is far faster than the target, whatever the budget, so the error never changes sign.
    final FeedbackBudgetController controller = new FeedbackBudgetController(config(BudgetControlConfig.Mode.HYBRID));
    for (int i = 0; i < 5000; i++) {
      controller.onResponse(1);
      assertTrue(controller.budget() <= 500);
    }
    assertEquals(500, controller.budget(), 1e-9);
    // Load arrives: RT now grows with the budget and the max budget misses the target. Without anti-windup the
    // 5000 queries of stored error would keep the budget pinned at the max for thousands of queries.
    int queries = 0;
    while (controller.budget() >= 400 && queries < 1000) {
      controller.onResponse(0.5 * controller.budget() + 50);
      queries++;
    }
    assertTrue(queries <= 30, "left the max budget after " + queries + " queries");
    for (int i = 0; i < 5000; i++) {
      controller.onResponse(10_000);
      assertTrue(controller.budget() >= 5);
    }
    assertEquals(5, controller.budget(), 1e-9);
  }

  @Test
  void aDeadlineBudgetRisesNoFurtherThanTwiceTheSlowestResponse()
  {
    // Idle: every query is far faster than the target, whatever the budget, so the error never changes sign. A
    // budget above the slowest responses binds nothing, so it rises no further than the target (or twice the
    // slowest response), not to the max: nothing is stored that must be unwound when load comes.
    final FeedbackBudgetController controller = new FeedbackBudgetController(
        config(BudgetControlConfig.Mode.HYBRID).withResponseCeiling(BudgetControlConfig.DEADLINE_RESPONSE_CEILING)
    );
    for (int i = 0; i < 5000; i++) {
      controller.onResponse(1);
      assertTrue(controller.budget() <= 100, "budget " + controller.budget());
    }
    assertEquals(100, controller.budget(), 1e-9);
    for (int i = 0; i < 5000; i++) {
      controller.onResponse(90);
      assertTrue(controller.budget() <= 180, "budget " + controller.budget());
    }
    assertEquals(180, controller.budget(), 1e-9);
    // Load arrives: RT now grows with the budget and misses the target at 180. The controller moves at once.
    int queries = 0;
    while (controller.budget() >= 140 && queries < 1000) {
      controller.onResponse(0.5 * controller.budget() + 50);
      queries++;
    }
    assertTrue(queries <= 30, "left the wound-up budget after " + queries + " queries");
    for (int i = 0; i < 5000; i++) {
      controller.onResponse(10_000);
      assertTrue(controller.budget() >= 5);
    }
    assertEquals(5, controller.budget(), 1e-9);
  }

  @Test
  void theAdaptiveStepChangesTheBudgetByAtMostAFactorOfTwo()
  {
    // Budget 50, RT flat at 10 whatever the budget: the model's slope is ~0 and the LQ step, dividing by it, would
    // jump by orders of magnitude. The ceiling (twice the slowest response, or the target) is 100 here.
    final FeedbackBudgetController controller = new FeedbackBudgetController(config(BudgetControlConfig.Mode.ADAPTIVE));
    double previous = controller.budget();
    for (int i = 0; i < 200; i++) {
      controller.onResponse(i < 100 ? 10 : 1000);
      assertTrue(controller.budget() <= 2 * previous + 1e-9 && controller.budget() >= previous / 2 - 1e-9,
                 "query " + i + ": " + previous + " -> " + controller.budget());
      previous = controller.budget();
    }
  }

  @Test
  void integralStepFollowsThePaperLaw()
  {
    final FeedbackBudgetController controller = new FeedbackBudgetController(
        config(BudgetControlConfig.Mode.INTEGRAL).withIntegralGain(0.5)
    );
    controller.onResponse(80);
    // e = target − y = 100 − 80 = 20; u = 50 + 0.5·20.
    assertEquals(60, controller.budget(), 1e-9);
    controller.onResponse(120);
    // EWMA y = 80 + 0.05·(120 − 80) = 82; u = 60 + 0.5·18.
    assertEquals(69, controller.budget(), 1e-9);
  }

  @Test
  void adaptiveStepRemovesHalfThePredictedErrorWithEqualWeights()
  {
    final FeedbackBudgetController controller = new FeedbackBudgetController(config(BudgetControlConfig.Mode.ADAPTIVE));
    for (int i = 0; i < 9; i++) {
      controller.onResponse(200);
      assertEquals(50, controller.budget(), 0, "adaptive-only does nothing between intervals");
    }
    controller.onResponse(200);
    // First model: proportional, slope 200/50 = 4. Half of the 100 ms error is 50 ms, i.e. 12.5 budget units.
    assertEquals(37.5, controller.budget(), 1e-9);
  }

  @Test
  void percentileEstimatorReportsTheWindowPercentile()
  {
    final WindowPercentileResponseTime p90 = new WindowPercentileResponseTime(1000, 90);
    assertTrue(Double.isNaN(p90.estimate()));
    for (int i = 1; i <= 1000; i++) {
      p90.record(i);
    }
    // The slice holding 1..100 left as the window filled: P90 of 101..1000.
    assertEquals(101 + 0.9 * 900, p90.estimate(), 911 * 0.01);
    // 1000 more responses, all slow: the old ones leave the window.
    for (int i = 0; i < 1000; i++) {
      p90.record(5000);
    }
    assertEquals(5000, p90.estimate(), 5000 * 0.01);
    for (int i = 0; i < 500; i++) {
      p90.record(10);
    }
    assertEquals(5000, p90.estimate(), 5000 * 0.01, "half the window is still slow");
  }

  @Test
  void ewmaUsesAlpha()
  {
    final EwmaResponseTime ewma = new EwmaResponseTime(0.05);
    ewma.record(100);
    ewma.record(200);
    assertEquals(105, ewma.estimate(), 1e-9);
  }

  @Test
  void concurrentQueryThreadsNeitherThrowNorEscapeTheBounds() throws Exception
  {
    final FeedbackBudgetController controller = new FeedbackBudgetController(config(BudgetControlConfig.Mode.HYBRID));
    final ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      final List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        final int thread = t;
        futures.add(pool.submit(() -> {
          for (int i = 0; i < 20_000; i++) {
            final double budget = controller.budget();
            assertTrue(budget >= 5 && budget <= 500);
            controller.onResponse(thread == 3 && i % 100 == 0 ? Double.NaN : budget * 1.5 + (i % 7));
          }
        }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    }
    finally {
      pool.shutdownNow();
    }
    assertEquals(200, controller.rejectedResponses());
    // RT = 1.5·u + ~3 meets the 100 ms target at u ≈ 64.7.
    assertEquals(64.7, controller.budget(), 6.5);
  }
}
