package org.getafix.simulator.whatif;

import org.getafix.simulator.settings.ScenarioSettings;
import org.getafix.simulator.workload.SkewedLatestWorkload;
import org.getafix.simulator.workload.WorkloadGenerator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The simulator's workload model fitted to the queries of a real cluster. The model (see
 * {@link SkewedLatestWorkload}) addresses segments by age, 0 the newest: a query's newest segment is {@code a} back
 * with P(a) ∝ 1/(a+1)^s, and it covers a geometric number of segments. Here the ages are the positions of the
 * cluster's segments newest first, s is the maximum-likelihood exponent of the observed newest ages, the mean
 * interval is the observed mean span, the rate is queries over the logged time, and the mix and per-segment cost
 * are per query type. How well the model fits is reported, not assumed: the share of segment accesses that go to
 * the newest tenth of the segments, observed and in the fitted model.
 *
 * @param queries              the queries fitted (of the modelled types, reading at least one served segment)
 * @param ignoredQueries       other queries: of types the simulator does not model, or reading no served segment
 * @param queriesPerSecond     the fitted queries over the logged time
 * @param recencyExponent      s
 * @param meanIntervalSegments the mean number of consecutive segments a query covers
 * @param types                per modelled query type: its share of the queries, and its mean time per segment read
 *                             when Historical logs give it (null otherwise)
 * @param newestTenthShare     observed share of segment accesses on the newest 10% of the segments
 * @param modelNewestTenthShare the same in the fitted model
 */
public record WorkloadFit(
    int queries,
    int ignoredQueries,
    double queriesPerSecond,
    double recencyExponent,
    double meanIntervalSegments,
    Map<String, TypeFit> types,
    double newestTenthShare,
    double modelNewestTenthShare
)
{
  /** The query types the simulator models: those it has a default cost for. */
  public static final List<String> MODELLED_TYPES = ScenarioSettings.Workload.DEFAULT_QUERY_TYPES
      .stream()
      .map(ScenarioSettings.QueryTypeSettings::name)
      .toList();
  private static final double MAX_EXPONENT = 5;
  private static final double EXPONENT_STEP = 0.01;
  private static final int MODEL_SAMPLES = 50_000;

  /**
   * @param share            the type's share of the fitted queries
   * @param meanSegmentMillis its mean time per segment read on the Historicals ({@code query/time} of its shares
   *                         over their segments, queueing on the node included), or null without Historical logs
   */
  public record TypeFit(double share, Double meanSegmentMillis)
  {
  }

  /** Fits the model to {@code queries} over the segments of {@code inventory}. */
  public static WorkloadFit of(ClusterInventory inventory, List<RequestLogs.LoggedQuery> queries)
  {
    final List<ClusterInventory.ServedSegment> segments = inventory.segments();
    final int n = segments.size();
    final List<int[]> ages = new ArrayList<>();
    final List<RequestLogs.LoggedQuery> fitted = new ArrayList<>();
    int ignored = 0;
    for (RequestLogs.LoggedQuery query : queries) {
      final int[] span = agesRead(segments, query);
      if (span == null || !MODELLED_TYPES.contains(query.queryType())) {
        ignored++;
        continue;
      }
      ages.add(span);
      fitted.add(query);
    }
    if (fitted.isEmpty()) {
      throw new IllegalArgumentException(
          "no query in the logs reads a served segment with a modelled type " + MODELLED_TYPES + " (" + ignored
          + " other queries)"
      );
    }
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    double sumLogAge = 0;
    double sumSpan = 0;
    final long[] accesses = new long[n];
    for (int i = 0; i < ages.size(); i++) {
      final int[] span = ages.get(i);
      sumLogAge += Math.log(span[0] + 1);
      sumSpan += span[1] - span[0] + 1;
      for (int age = span[0]; age <= span[1]; age++) {
        accesses[age]++;
      }
      first = Math.min(first, fitted.get(i).arrivalMillis());
      last = Math.max(last, fitted.get(i).arrivalMillis());
    }
    final double exponent = maximumLikelihoodExponent(sumLogAge, ages.size(), n);
    final double meanSpan = sumSpan / ages.size();
    final double seconds = Math.max(1.0, (last - first) / 1000.0);
    return new WorkloadFit(
        fitted.size(),
        ignored,
        fitted.size() / seconds,
        exponent,
        meanSpan,
        types(fitted),
        newestTenthShare(accesses),
        modelNewestTenthShare(exponent, meanSpan, n)
    );
  }

  /** The newest and oldest age a query reads among the segments (newest first), or null when it reads none. */
  private static int[] agesRead(List<ClusterInventory.ServedSegment> segments, RequestLogs.LoggedQuery query)
  {
    int newest = -1;
    int oldest = -1;
    for (int age = 0; age < segments.size(); age++) {
      final ClusterInventory.ServedSegment segment = segments.get(age);
      if (!segment.dataSource().equals(query.dataSource())) {
        continue;
      }
      for (RequestLogs.Span span : query.spans()) {
        final boolean read = span.partition() < 0
                             ? segment.overlaps(span.startMillis(), span.endMillis())
                             : segment.startMillis() == span.startMillis() && segment.endMillis() == span.endMillis()
                               && segment.partition() == span.partition();
        if (read) {
          newest = newest < 0 ? age : newest;
          oldest = age;
          break;
        }
      }
    }
    return newest < 0 ? null : new int[]{newest, oldest};
  }

  /** argmax over s of the log-likelihood of P(a) ∝ (a+1)^-s, a in [0, n), on a grid of step 0.01 in [0, 5]. */
  static double maximumLikelihoodExponent(double sumLogAge, int count, int n)
  {
    double best = 0;
    double bestLikelihood = Double.NEGATIVE_INFINITY;
    for (double s = 0; s <= MAX_EXPONENT + 1e-9; s += EXPONENT_STEP) {
      double z = 0;
      for (int a = 0; a < n; a++) {
        z += Math.pow(a + 1, -s);
      }
      final double likelihood = -s * sumLogAge - count * Math.log(z);
      if (likelihood > bestLikelihood) {
        bestLikelihood = likelihood;
        best = s;
      }
    }
    return Math.round(best * 100) / 100.0;
  }

  private static Map<String, TypeFit> types(List<RequestLogs.LoggedQuery> queries)
  {
    final Map<String, long[]> counts = new TreeMap<>();
    for (RequestLogs.LoggedQuery query : queries) {
      // count, logged time, segments of the Historical shares
      final long[] c = counts.computeIfAbsent(query.queryType(), t -> new long[3]);
      c[0]++;
      if (query.bySegment()) {
        c[1] += query.timeMillis();
        c[2] += query.spans().size();
      }
    }
    final Map<String, TypeFit> types = new TreeMap<>();
    counts.forEach((type, c) -> types.put(
        type,
        new TypeFit((double) c[0] / queries.size(), c[2] > 0 ? (double) c[1] / c[2] : null)
    ));
    return types;
  }

  private static double newestTenthShare(long[] accesses)
  {
    final int tenth = Math.max(1, accesses.length / 10);
    final long total = Arrays.stream(accesses).sum();
    return total == 0 ? 0 : (double) Arrays.stream(accesses, 0, tenth).sum() / total;
  }

  private static double modelNewestTenthShare(double exponent, double meanSpan, int n)
  {
    final WorkloadGenerator model = new SkewedLatestWorkload(exponent, Math.max(1, meanSpan));
    final SplittableRandom random = new SplittableRandom(1);
    final long[] accesses = new long[n];
    for (int i = 0; i < MODEL_SAMPLES; i++) {
      final WorkloadGenerator.Interval interval = model.next(random, n);
      for (int age = interval.newestAge(); age < interval.newestAge() + interval.length(); age++) {
        accesses[age]++;
      }
    }
    return newestTenthShare(accesses);
  }
}
