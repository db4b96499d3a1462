package org.getafix.core.quality.admission;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PidAdmissionControllerTest
{
  private static final long WINDOW = AdmissionConfig.defaults(AdmissionConfig.Signal.ANSWER_QUALITY).windowMillis();

  /**
   * Window {@code w} (starting at w·WINDOW ms): 20 high-priority answers of the given quality, spread over it; the
   * window is closed by the next window's first call.
   */
  private static void window(AdmissionController controller, int w, double quality, boolean timedOut)
  {
    for (int i = 0; i < 20; i++) {
      final long now = w * WINDOW + i * (WINDOW / 20);
      controller.onHighPriorityQuality(quality, now);
      controller.onHighPriorityCompleted(timedOut, now);
    }
  }

  private static PidAdmissionController controller(AdmissionConfig.Signal signal)
  {
    return new PidAdmissionController(AdmissionConfig.defaults(signal));
  }

  @Test
  void qualityGuidedShedsLowPriorityWhenHighPriorityQualityDropsAndStopsWhenItRecovers()
  {
    final PidAdmissionController controller = controller(AdmissionConfig.Signal.ANSWER_QUALITY);
    int w = 0;
    for (int p = 0; p < 5; p++) {
      window(controller, w++, 0.98, false);
    }
    assertEquals(1, controller.lowPriorityAdmitFraction(), 0, "quality above target: admit everything");
    double previous = 1;
    for (int p = 0; p < 10; p++) {
      window(controller, w++, 0.6, false);
      assertTrue(controller.lowPriorityAdmitFraction() <= previous, "shedding must not relax while quality is low");
      previous = controller.lowPriorityAdmitFraction();
    }
    assertTrue(previous < 0.5, "sheds: " + previous);
    for (int p = 0; p < 30; p++) {
      window(controller, w++, 0.98, false);
    }
    assertEquals(1, controller.lowPriorityAdmitFraction(), 0, "stops shedding once quality is back above target");
  }

  @Test
  void qualityGuidedIgnoresTimeoutsAndTimeoutGuidedIgnoresQuality()
  {
    final PidAdmissionController quality = controller(AdmissionConfig.Signal.ANSWER_QUALITY);
    final PidAdmissionController timeouts = controller(AdmissionConfig.Signal.TIMEOUT_RATE);
    // Every high-priority query times out, yet its partial answer is as good as the mature one.
    int w = 0;
    for (int p = 0; p < 10; p++, w++) {
      window(quality, w, 1.0, true);
      window(timeouts, w, 1.0, true);
    }
    assertEquals(1, quality.lowPriorityAdmitFraction(), 0);
    assertEquals(0, timeouts.lowPriorityAdmitFraction(), 0, "the timeout proxy sheds everything");
    for (int p = 0; p < 30; p++) {
      window(timeouts, w++, 0.1, false);
    }
    assertEquals(1, timeouts.lowPriorityAdmitFraction(), 0);
  }

  @Test
  void actsOnceAtTheEndOfEachWindowOnThatWindowsSamplesOnly()
  {
    final PidAdmissionController controller = controller(AdmissionConfig.Signal.ANSWER_QUALITY);
    for (int i = 0; i < 20; i++) {
      controller.onHighPriorityQuality(0.5, i * 100L);
      controller.admitLowPriority(i * 100L + 50);
    }
    controller.admitLowPriority(WINDOW - 1);
    assertEquals(1, controller.lowPriorityAdmitFraction(), 0, "no action before the window ends");
    assertTrue(Double.isNaN(controller.signal()));
    controller.onHighPriorityQuality(1.0, WINDOW);
    // e = 0.5 − 0.9 = −0.4; the first action has no Δe: change = K_I·e = 0.5·(−0.4). The sample at the window's end
    // belongs to the next window.
    assertEquals(0.8, controller.lowPriorityAdmitFraction(), 1e-9);
    assertEquals(0.5, controller.signal(), 1e-9);
    // The next window's mean is 1.0 alone, not the mean of everything seen: e = 0.1, Δe = 0.5.
    controller.admitLowPriority(2 * WINDOW);
    assertEquals(1.0, controller.signal(), 1e-9);
    assertEquals(Math.min(1, 0.8 + 0.4 * 0.5 + 0.5 * 0.1), controller.lowPriorityAdmitFraction(), 1e-9);
  }

  @Test
  void emptyWindowsHoldTheFractionAndASampleAfterAGapCountsInItsOwnWindow()
  {
    final PidAdmissionController controller = controller(AdmissionConfig.Signal.ANSWER_QUALITY);
    controller.onHighPriorityQuality(0.5, 0);
    controller.admitLowPriority(WINDOW);
    assertEquals(0.8, controller.lowPriorityAdmitFraction(), 1e-9);
    for (int w = 2; w < 50; w++) {
      controller.admitLowPriority(w * WINDOW + 1);
    }
    assertEquals(0.8, controller.lowPriorityAdmitFraction(), 1e-9, "no samples: hold");
    assertEquals(0.5, controller.signal(), 1e-9, "the signal is the last window that had samples");
    // A long gap, then a sample: the windows passed in between were empty, and the sample opens no action yet.
    controller.onHighPriorityQuality(0.2, 100 * WINDOW + 7);
    assertEquals(0.8, controller.lowPriorityAdmitFraction(), 1e-9);
    controller.admitLowPriority(101 * WINDOW - 1);
    assertEquals(0.8, controller.lowPriorityAdmitFraction(), 1e-9, "still the sample's own window");
    controller.admitLowPriority(101 * WINDOW);
    assertEquals(0.2, controller.signal(), 1e-9);
    assertTrue(controller.lowPriorityAdmitFraction() < 0.8);
  }

  @Test
  void aClockThatGoesBackStaysInTheCurrentWindow()
  {
    final PidAdmissionController controller = controller(AdmissionConfig.Signal.TIMEOUT_RATE);
    controller.onHighPriorityCompleted(true, 5 * WINDOW);
    controller.onHighPriorityCompleted(true, 0);
    assertEquals(1, controller.lowPriorityAdmitFraction(), 0);
    controller.onHighPriorityCompleted(false, 6 * WINDOW);
    // Both timeouts counted in the first window: non-timeout rate 0.
    assertEquals(0, controller.signal(), 1e-9);
  }

  @Test
  void admitsExactlyTheFractionOfLowPriorityQueries()
  {
    final PidAdmissionController controller = controller(AdmissionConfig.Signal.ANSWER_QUALITY);
    controller.onHighPriorityQuality(0.4, 0);
    controller.admitLowPriority(WINDOW);
    final double fraction = controller.lowPriorityAdmitFraction();
    assertTrue(fraction < 1);
    int admitted = 0;
    for (int i = 0; i < 10_000; i++) {
      if (controller.admitLowPriority(WINDOW + 1)) {
        admitted++;
      }
    }
    assertEquals(fraction * 10_000, admitted, 1);
  }

  @Test
  void garbageSamplesAreIgnoredAndBadSettingsRejected()
  {
    final PidAdmissionController controller = controller(AdmissionConfig.Signal.ANSWER_QUALITY);
    for (double garbage : new double[]{Double.NaN, -0.1, 1.5, Double.POSITIVE_INFINITY}) {
      controller.onHighPriorityQuality(garbage, 0);
    }
    controller.admitLowPriority(3 * WINDOW);
    assertTrue(Double.isNaN(controller.signal()));
    assertEquals(1, controller.lowPriorityAdmitFraction(), 0);
    final AdmissionConfig.Signal q = AdmissionConfig.Signal.ANSWER_QUALITY;
    assertThrows(IllegalArgumentException.class, () -> new AdmissionConfig(q, 0, 1000, 0.4, 0.2, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new AdmissionConfig(q, 0.9, 0, 0.4, 0.2, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new AdmissionConfig(q, 0.9, 99, 0.4, 0.2, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new AdmissionConfig(q, 0.9, 1000, -1, 0.2, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new AdmissionConfig(q, 0.9, 1000, 0.4, 0.2, 0, 2));
    assertThrows(IllegalArgumentException.class, () -> new AdmissionConfig(null, 0.9, 1000, 0.4, 0.2, 0, 0));
  }
}
