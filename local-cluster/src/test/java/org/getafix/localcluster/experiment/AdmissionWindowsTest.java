package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionWindowsTest
{
  private static BudgetLoad.Outcome high(long endMillis, double share)
  {
    return new BudgetLoad.Outcome(0, true, 200, 100, share, endMillis, Double.NaN);
  }

  private static BudgetLoad.Outcome low(long endMillis, int status)
  {
    return new BudgetLoad.Outcome(0, false, status, 100, 1, endMillis, Double.NaN);
  }

  @Test
  void eachWindowCountsTheAnswersThatEndedInItAndDropsThePartialLastOne()
  {
    final AdmissionWindows windows = AdmissionWindows.of(List.of(
        high(0, 1.0), high(999, 0.5), low(500, 200), low(600, 429),
        high(1000, 0.8), low(1999, 200), low(1500, 200),
        low(2100, 200), high(2200, 0.1)
    ), 2500, 1000);
    assertEquals(1000, windows.windowMillis());
    assertEquals(2, windows.windows().size(), "the last half window is left out");
    assertEquals(new AdmissionWindows.Window(1, 2, 0.75), windows.windows().get(0));
    assertEquals(new AdmissionWindows.Window(2, 1, 0.8), windows.windows().get(1));
    assertEquals(0.5, windows.targetMetShare(0.8), 1e-12);
  }

  @Test
  void aWindowWithoutHighPriorityAnswersDoesNotMeetTheTarget()
  {
    final AdmissionWindows windows = AdmissionWindows.of(List.of(low(10, 200)), 1000, 1000);
    assertTrue(Double.isNaN(windows.windows().get(0).highPriorityMeanQuality()));
    assertEquals(0, windows.targetMetShare(0.1), 0);
    assertTrue(Double.isNaN(AdmissionWindows.of(List.of(), 500, 1000).targetMetShare(0.9)), "no windows");
  }

  @Test
  void theEqualQualityRatioCountsOnlyWindowsWhereBothMetTheTarget()
  {
    // Quality-guided: 4 low-priority answers a window, but its second window misses the target.
    // Baseline: 2 a window, its third window misses the target, and it has one window more.
    final List<BudgetLoad.Outcome> quality = new ArrayList<>();
    final List<BudgetLoad.Outcome> baseline = new ArrayList<>();
    final double[] qualityShares = {0.95, 0.5, 0.95, 0.95};
    final double[] baselineShares = {0.95, 0.95, 0.6, 0.95, 0.95};
    for (int w = 0; w < 5; w++) {
      if (w < 4) {
        quality.add(high(w * 1000L + 1, qualityShares[w]));
        for (int i = 0; i < 4; i++) {
          quality.add(low(w * 1000L + 10 + i, 200));
        }
      }
      baseline.add(high(w * 1000L + 1, baselineShares[w]));
      baseline.add(low(w * 1000L + 10, 200));
      baseline.add(low(w * 1000L + 11, 200));
    }
    final AdmissionWindows q = AdmissionWindows.of(quality, 4000, 1000);
    final AdmissionWindows b = AdmissionWindows.of(baseline, 5000, 1000);
    final AdmissionWindows.EqualQualityRatio ratio = q.equalQualityRatio(b, 0.9);
    assertEquals(2, ratio.windowsBoth(), "windows 0 and 3");
    assertEquals(4, ratio.windowsCommon());
    assertEquals(8.0 / 4, ratio.ratio(), 1e-12);
    // The whole-run ratio would be 16 / 10; the windows where quality-guided missed the target do not count.
    assertEquals(4.0 / 8, b.equalQualityRatio(q, 0.9).ratio(), 1e-12);
  }

  @Test
  void noCommonWindowAtTargetOrNoBaselineAnswersThereGiveNoRatio()
  {
    final AdmissionWindows missed = AdmissionWindows.of(List.of(high(1, 0.5), low(2, 200)), 1000, 1000);
    final AdmissionWindows met = AdmissionWindows.of(List.of(high(1, 1.0), low(2, 200)), 1000, 1000);
    final AdmissionWindows metWithoutLow = AdmissionWindows.of(List.of(high(1, 1.0)), 1000, 1000);
    assertTrue(Double.isNaN(met.equalQualityRatio(missed, 0.9).ratio()));
    assertEquals(0, met.equalQualityRatio(missed, 0.9).windowsBoth());
    assertTrue(Double.isNaN(met.equalQualityRatio(metWithoutLow, 0.9).ratio()));
    assertEquals(0, metWithoutLow.equalQualityRatio(met, 0.9).ratio(), 0);
    assertThrows(IllegalArgumentException.class,
                 () -> met.equalQualityRatio(AdmissionWindows.of(List.of(), 1000, 500), 0.9));
  }
}
