package org.getafix.localcluster.experiment;

import java.util.ArrayList;
import java.util.List;

/**
 * An admission run cut into fixed time windows from its start, so that two policies' low-priority throughput can be
 * compared where their high-priority quality was equal: Ubora counts a quality violation per window, and compares
 * the controllers at the same high-priority quality.
 *
 * @param windowMillis each window's length
 * @param windows      the run's whole windows, in order; a last, partial window is left out so that every window
 *                     counts the same time
 */
public record AdmissionWindows(long windowMillis, List<Window> windows)
{
  /**
   * One window's figures.
   *
   * @param lowPriorityAnswered     low-priority queries answered (HTTP 200) that ended in the window
   * @param highPriorityAnswered    high-priority queries answered that ended in it
   * @param highPriorityMeanQuality their mean answered share, NaN when none was answered
   */
  public record Window(int lowPriorityAnswered, int highPriorityAnswered, double highPriorityMeanQuality)
  {
    /** Whether high-priority queries were answered in this window and met {@code target} on average. */
    public boolean metTarget(double target)
    {
      return highPriorityAnswered > 0 && highPriorityMeanQuality >= target;
    }
  }

  /**
   * Both runs' low-priority throughput over the windows where both met the high-priority target, as a ratio.
   *
   * @param ratio         the numerator run's low-priority answers over the denominator's in those windows; NaN when
   *                      no window qualifies or the denominator answered none there
   * @param windowsBoth   windows where both met the target
   * @param windowsCommon windows both runs have
   */
  public record EqualQualityRatio(double ratio, int windowsBoth, int windowsCommon)
  {
  }

  public AdmissionWindows
  {
    if (windowMillis <= 0) {
      throw new IllegalArgumentException("windowMillis must be > 0, got [" + windowMillis + "]");
    }
    windows = List.copyOf(windows);
  }

  /** {@code outcomes} of a run of {@code durationMillis} in windows of {@code windowMillis}. */
  public static AdmissionWindows of(List<BudgetLoad.Outcome> outcomes, long durationMillis, long windowMillis)
  {
    final int count = (int) Math.max(0, durationMillis / windowMillis);
    final int[] low = new int[count];
    final int[] high = new int[count];
    final double[] qualitySum = new double[count];
    for (BudgetLoad.Outcome o : outcomes) {
      if (o.status() != 200 || o.endMillis() < 0) {
        continue;
      }
      final long w = o.endMillis() / windowMillis;
      if (w >= count) {
        continue;
      }
      if (o.highPriority()) {
        high[(int) w]++;
        qualitySum[(int) w] += o.answeredShare();
      } else {
        low[(int) w]++;
      }
    }
    final List<Window> windows = new ArrayList<>(count);
    for (int w = 0; w < count; w++) {
      windows.add(new Window(low[w], high[w], high[w] == 0 ? Double.NaN : qualitySum[w] / high[w]));
    }
    return new AdmissionWindows(windowMillis, windows);
  }

  /** The share of windows whose high-priority queries met {@code target}; NaN without windows. */
  public double targetMetShare(double target)
  {
    return windows.isEmpty()
           ? Double.NaN
           : windows.stream().filter(w -> w.metTarget(target)).count() / (double) windows.size();
  }

  /**
   * This run's low-priority answers over {@code other}'s, counted only in the windows (the same offsets from each
   * run's start) where the high-priority queries of both met {@code target}: throughput at equal high-priority
   * quality. Read it with {@link EqualQualityRatio#windowsBoth}: a policy that meets the target in few windows is
   * compared on those few only.
   */
  public EqualQualityRatio equalQualityRatio(AdmissionWindows other, double target)
  {
    if (other.windowMillis != windowMillis) {
      throw new IllegalArgumentException("windows of " + windowMillis + " ms against " + other.windowMillis + " ms");
    }
    final int common = Math.min(windows.size(), other.windows.size());
    long mine = 0;
    long theirs = 0;
    int both = 0;
    for (int w = 0; w < common; w++) {
      if (windows.get(w).metTarget(target) && other.windows.get(w).metTarget(target)) {
        both++;
        mine += windows.get(w).lowPriorityAnswered();
        theirs += other.windows.get(w).lowPriorityAnswered();
      }
    }
    return new EqualQualityRatio(both == 0 || theirs == 0 ? Double.NaN : (double) mine / theirs, both, common);
  }
}
