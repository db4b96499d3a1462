package org.getafix.core.quality.admission;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PidAdmissionControllerTest
{
  /** One evaluation period of 100 requests, 20 of them sampled high-priority answers of the given quality. */
  private static void period(AdmissionController controller, double quality, boolean timedOut)
  {
    for (int i = 0; i < 100; i++) {
      if (i % 5 == 0) {
        controller.onHighPriorityQuality(quality);
        controller.onHighPriorityCompleted(timedOut);
      }
      controller.onRequest();
    }
  }

  @Test
  void qualityGuidedShedsLowPriorityWhenHighPriorityQualityDropsAndStopsWhenItRecovers()
  {
    final PidAdmissionController controller = new PidAdmissionController(
        AdmissionConfig.defaults(AdmissionConfig.Signal.ANSWER_QUALITY)
    );
    for (int p = 0; p < 5; p++) {
      period(controller, 0.98, false);
    }
    assertEquals(1, controller.lowPriorityAdmitFraction(), 0, "quality above target: admit everything");
    double previous = 1;
    for (int p = 0; p < 10; p++) {
      period(controller, 0.6, false);
      assertTrue(controller.lowPriorityAdmitFraction() <= previous, "shedding must not relax while quality is low");
      previous = controller.lowPriorityAdmitFraction();
    }
    assertTrue(previous < 0.5, "sheds: " + previous);
    for (int p = 0; p < 30; p++) {
      period(controller, 0.98, false);
    }
    assertEquals(1, controller.lowPriorityAdmitFraction(), 0, "stops shedding once quality is back above target");
  }

  @Test
  void qualityGuidedIgnoresTimeoutsAndTimeoutGuidedIgnoresQuality()
  {
    final PidAdmissionController quality = new PidAdmissionController(
        AdmissionConfig.defaults(AdmissionConfig.Signal.ANSWER_QUALITY)
    );
    final PidAdmissionController timeouts = new PidAdmissionController(
        AdmissionConfig.defaults(AdmissionConfig.Signal.TIMEOUT_RATE)
    );
    // Every high-priority query times out, yet its partial answer is as good as the mature one.
    for (int p = 0; p < 10; p++) {
      period(quality, 1.0, true);
      period(timeouts, 1.0, true);
    }
    assertEquals(1, quality.lowPriorityAdmitFraction(), 0);
    assertEquals(0, timeouts.lowPriorityAdmitFraction(), 0, "the timeout proxy sheds everything");
    for (int p = 0; p < 30; p++) {
      period(timeouts, 0.1, false);
    }
    assertEquals(1, timeouts.lowPriorityAdmitFraction(), 0);
  }

  @Test
  void evaluatesOnlyEveryPeriodAndHoldsWithoutNewSamples()
  {
    final PidAdmissionController controller = new PidAdmissionController(
        AdmissionConfig.defaults(AdmissionConfig.Signal.ANSWER_QUALITY)
    );
    for (int i = 0; i < 20; i++) {
      controller.onHighPriorityQuality(0.5);
    }
    for (int i = 0; i < 99; i++) {
      controller.onRequest();
    }
    assertEquals(1, controller.lowPriorityAdmitFraction(), 0, "no evaluation before the 100th request");
    controller.onRequest();
    // e = 0.5 − 0.9 = −0.4; first evaluation has no Δe: change = K_I·e = 0.5·(−0.4).
    assertEquals(0.8, controller.lowPriorityAdmitFraction(), 1e-9);
    for (int i = 0; i < 1000; i++) {
      controller.onRequest();
    }
    assertEquals(0.8, controller.lowPriorityAdmitFraction(), 1e-9, "no new samples: hold");
  }

  @Test
  void admitsExactlyTheFractionOfLowPriorityQueries()
  {
    final PidAdmissionController controller = new PidAdmissionController(
        AdmissionConfig.defaults(AdmissionConfig.Signal.ANSWER_QUALITY)
    );
    for (int i = 0; i < 20; i++) {
      controller.onHighPriorityQuality(0.4);
    }
    for (int i = 0; i < 100; i++) {
      controller.onRequest();
    }
    final double fraction = controller.lowPriorityAdmitFraction();
    int admitted = 0;
    for (int i = 0; i < 10_000; i++) {
      if (controller.admitLowPriority()) {
        admitted++;
      }
    }
    assertEquals(fraction * 10_000, admitted, 1);
  }

  @Test
  void garbageSamplesAreIgnoredAndBadSettingsRejected()
  {
    final PidAdmissionController controller = new PidAdmissionController(
        AdmissionConfig.defaults(AdmissionConfig.Signal.ANSWER_QUALITY)
    );
    for (double garbage : new double[]{Double.NaN, -0.1, 1.5, Double.POSITIVE_INFINITY}) {
      controller.onHighPriorityQuality(garbage);
    }
    assertTrue(Double.isNaN(controller.signal()));
    for (int i = 0; i < 500; i++) {
      controller.onRequest();
    }
    assertEquals(1, controller.lowPriorityAdmitFraction(), 0);
    final AdmissionConfig.Signal q = AdmissionConfig.Signal.ANSWER_QUALITY;
    assertThrows(IllegalArgumentException.class, () -> new AdmissionConfig(q, 0, 100, 100, 0.4, 0.2, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new AdmissionConfig(q, 0.9, 0, 100, 0.4, 0.2, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new AdmissionConfig(q, 0.9, 100, 100, -1, 0.2, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new AdmissionConfig(q, 0.9, 100, 100, 0.4, 0.2, 0, 2));
    assertThrows(IllegalArgumentException.class, () -> new AdmissionConfig(null, 0.9, 100, 100, 0.4, 0.2, 0, 0));
  }
}
