package org.getafix.core.quality.split;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The budget paper's split for clairvoyant scheduling (§3.2.1, Figure 3): maximise Σ fᵢ(pᵢ / wᵢ) subject to
 * Σ pᵢ ≤ B and 0 ≤ pᵢ ≤ wᵢ, with each fᵢ a concave {@link QualityProfile}. With piecewise-linear concave profiles
 * this convex problem is a fractional knapsack over the profile segments, solved exactly by water-filling: give
 * budget to segments in decreasing order of marginal quality per unit of processing time (segment gain / (width·wᵢ)),
 * which concavity keeps in order within each query. Segments with equal marginal gain share what remains of the
 * budget in proportion to their length, so identical queries get identical shares (the paper's observation that
 * under heavy load queries end up with nearly equal processing time). Stateless and thread-safe.
 */
public final class MaxQuality
{
  private static final double TIE = 1e-12;

  private MaxQuality()
  {
  }

  /** One pending query: its service demand w (processing time to complete it) and its quality profile. */
  public record Job(double demand, QualityProfile profile)
  {
    public Job
    {
      if (!(Double.isFinite(demand) && demand > 0)) {
        throw new IllegalArgumentException("job demand must be a finite number > 0, got [" + demand + "]");
      }
      if (profile == null) {
        throw new IllegalArgumentException("job quality profile must be set");
      }
    }
  }

  /**
   * The processing time assigned to each job, in job order. A NaN or negative budget counts as 0. A budget that
   * covers every demand completes every job.
   */
  public static double[] split(List<Job> jobs, double budget)
  {
    final double[] assigned = new double[jobs.size()];
    double remaining = budget > 0 ? budget : 0;
    final List<Segment> segments = new ArrayList<>();
    for (int j = 0; j < jobs.size(); j++) {
      final Job job = jobs.get(j);
      for (int s = 0; s < job.profile().segments(); s++) {
        final double length = job.profile().segmentWidth(s) * job.demand();
        segments.add(new Segment(j, length, job.profile().segmentGain(s) / length));
      }
    }
    // Stable sort: within one job, equal-rate segments stay in fraction order.
    segments.sort(Comparator.comparingDouble(Segment::rate).reversed());
    int i = 0;
    while (i < segments.size() && remaining > 0) {
      // One tie level: every segment whose rate equals the first's.
      int end = i;
      double levelLength = 0;
      while (end < segments.size() && segments.get(i).rate() - segments.get(end).rate() <= TIE * segments.get(i).rate()) {
        levelLength += segments.get(end).length();
        end++;
      }
      final double share = Math.min(1, remaining / levelLength);
      for (int k = i; k < end; k++) {
        assigned[segments.get(k).job()] += share * segments.get(k).length();
      }
      remaining -= share * levelLength;
      i = end;
    }
    for (int j = 0; j < assigned.length; j++) {
      assigned[j] = Math.min(assigned[j], jobs.get(j).demand());
    }
    return assigned;
  }

  /** Σ fᵢ(pᵢ / wᵢ) of an assignment, to compare splits. */
  public static double totalQuality(List<Job> jobs, double[] assigned)
  {
    double total = 0;
    for (int j = 0; j < jobs.size(); j++) {
      total += jobs.get(j).profile().quality(assigned[j] / jobs.get(j).demand());
    }
    return total;
  }

  /** The budget paper's MinMRT: job indexes in ascending order of assigned time (shortest first). */
  public static int[] shortestFirst(double[] assigned)
  {
    return IntStream.range(0, assigned.length)
                    .boxed()
                    .sorted(Comparator.comparingDouble(j -> assigned[j]))
                    .mapToInt(Integer::intValue)
                    .toArray();
  }

  private record Segment(int job, double length, double rate)
  {
  }
}
