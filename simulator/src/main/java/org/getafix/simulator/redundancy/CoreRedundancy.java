package org.getafix.simulator.redundancy;

import it.unimi.dsi.fastutil.doubles.DoubleArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.getafix.simulator.cluster.RedundancyPolicy;
import org.getafix.simulator.cluster.Segment;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.report.RedundancyResult;
import org.getafix.simulator.settings.ScenarioSettings;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * Redundant sub-queries with getafix-core's {@code redundancy} package, one mode per subclass: the glue shows the
 * core classes each segment's holders and the latencies the broker observes, on the simulated clock, and measures
 * what the redundancy costs and buys. Every mode but {@code none} sends a share more than once:
 * <ul>
 *   <li>{@code hedge}: {@link HedgeRedundancy}, a late share re-sent to its fastest other holder;</li>
 *   <li>{@code spare}: {@link SpareRedundancy}, sPARE's partial replication dispatched by its token arbiter;</li>
 *   <li>{@code zoolander}: {@link ZoolanderRedundancy}, as many copies up front as Zoolander's model finds
 *   worth their load;</li>
 *   <li>{@code duplicate}: {@link DuplicateRedundancy}, always the same number of copies up front.</li>
 * </ul>
 */
public abstract class CoreRedundancy implements RedundancyPolicy
{
  protected final EventLoop loop;
  protected final ScenarioSettings.Redundancy settings;
  private final String mode;
  private final List<String> nodeIds;
  private final Map<String, Integer> nodeIndex = new HashMap<>();
  protected final int[] cores;
  private final double measureFrom;
  private final double measureTo;
  private final double sloSeconds;

  // The measured window.
  private long subQueries;
  private long extra;
  private long answered;
  private long withinSlo;
  private double predictedSum;

  // The current period.
  private double periodStart;
  private long periodSubQueries;
  private long periodExtra;
  private long periodAnswered;
  private long periodWithin;
  private double periodPredicted;
  /** Sub-queries each node got as primary this period: its arrival rate without the redundancy. */
  protected final long[] periodPrimaries;
  /** This period's answered queries, and every answered copy's response and its service time, in ms. */
  protected final DoubleArrayList periodQueryMillis = new DoubleArrayList();
  protected final DoubleArrayList periodResponseMillis = new DoubleArrayList();
  protected final DoubleArrayList periodServiceMillis = new DoubleArrayList();
  private final List<RedundancyResult.Period> periods = new ArrayList<>();

  /**
   * What every mode is made with.
   *
   * @param cores each node's processing threads: the sub-queries it runs at once
   */
  record Setup(
      EventLoop loop,
      ScenarioSettings.Redundancy settings,
      List<String> nodeIds,
      int[] cores,
      double measureFrom,
      double measureTo
  )
  {
  }

  protected CoreRedundancy(String mode, Setup setup)
  {
    this.mode = mode;
    this.loop = setup.loop();
    this.settings = setup.settings();
    this.nodeIds = List.copyOf(setup.nodeIds());
    for (int i = 0; i < nodeIds.size(); i++) {
      nodeIndex.put(nodeIds.get(i), i);
    }
    this.cores = setup.cores().clone();
    this.measureFrom = setup.measureFrom();
    this.measureTo = setup.measureTo();
    this.sloSeconds = settings.sloMillis() / 1000;
    this.periodPrimaries = new long[nodeIds.size()];
  }

  /**
   * The mode called {@code mode} (one of {@link ScenarioSettings#REDUNDANCIES}), its periods scheduled on
   * {@code loop} up to {@code measureTo}.
   *
   * @param cores  each node's processing threads: the sub-queries it runs at once
   * @param random draws of sPARE's arbiter
   */
  public static CoreRedundancy named(
      String mode,
      EventLoop loop,
      ScenarioSettings.Redundancy settings,
      List<String> nodeIds,
      int[] cores,
      RandomGenerator random,
      double measureFrom,
      double measureTo
  )
  {
    final Setup setup = new Setup(loop, settings, nodeIds, cores, measureFrom, measureTo);
    final CoreRedundancy redundancy = switch (mode) {
      case "none" -> new NoRedundancy(setup);
      case "hedge" -> new HedgeRedundancy(setup);
      case "spare" -> new SpareRedundancy(setup, random);
      case "zoolander" -> new ZoolanderRedundancy(setup);
      case "duplicate" -> new DuplicateRedundancy(setup);
      default -> throw new IllegalArgumentException("unknown redundancy mode [" + mode + "]");
    };
    for (double t = settings.periodSeconds(); t <= measureTo + 1e-9; t += settings.periodSeconds()) {
      loop.schedule(t, redundancy::endPeriod);
    }
    return redundancy;
  }

  /** Where a share goes up front; {@link #predicted} may note the service level the choice is expected to reach. */
  protected abstract Placement choose(Segment segment, IntSupplier routed);

  /** A copy on {@code node} answered after {@code responseMillis}, having held a core {@code serviceMillis}. */
  protected void answered(int node, boolean token, double responseMillis, double serviceMillis)
  {
  }

  /** A copy on {@code node} was cancelled {@code elapsedMillis} after it was sent. */
  protected void cancelled(int node, boolean token, double elapsedMillis)
  {
  }

  /** A period ended: the mode may decide again on what it measured ({@link #periodPrimaries} and the lists). */
  protected void periodEnded(double seconds)
  {
  }

  /** Whether the mode predicts the service level of its choices ({@link #predicted}): Zoolander only. */
  protected boolean predicts()
  {
    return false;
  }

  /** The mean over nodes of the utilisation the mode's model sees now; null for a mode without a model. */
  protected Double modelUtilisation()
  {
    return null;
  }

  /** sPARE's replication factor now; null for the other modes. */
  protected Double replicationFactor()
  {
    return null;
  }

  @Override
  public final Placement place(Segment segment, IntSupplier routed)
  {
    final Placement placement = choose(segment, routed);
    periodSubQueries++;
    periodExtra += placement.nodes().length - 1;
    periodPrimaries[placement.nodes()[0]]++;
    if (inWindow(loop.now())) {
      subQueries++;
      extra += placement.nodes().length - 1;
    }
    return placement;
  }

  /** The service level the share being placed is predicted to reach. */
  protected final void predicted(double serviceLevel)
  {
    periodPredicted += serviceLevel;
    if (inWindow(loop.now())) {
      predictedSum += serviceLevel;
    }
  }

  /** A copy was sent after the share's dispatch (a hedge). */
  protected final void sentLateCopy()
  {
    periodExtra++;
    if (inWindow(loop.now())) {
      extra++;
    }
  }

  @Override
  public final void onAnswer(
      int node,
      boolean token,
      double responseSeconds,
      double serviceSeconds,
      double shareSeconds,
      double dispatchedAt
  )
  {
    final boolean within = shareSeconds <= sloSeconds;
    periodAnswered++;
    if (within) {
      periodWithin++;
    }
    if (inWindow(dispatchedAt)) {
      answered++;
      if (within) {
        withinSlo++;
      }
    }
    periodResponseMillis.add(responseSeconds * 1000);
    periodServiceMillis.add(serviceSeconds * 1000);
    answered(node, token, responseSeconds * 1000, serviceSeconds * 1000);
  }

  @Override
  public final void onQueryDone(double latencySeconds)
  {
    periodQueryMillis.add(latencySeconds * 1000);
  }

  @Override
  public final void onCancelled(int node, boolean token, double elapsedSeconds)
  {
    cancelled(node, token, elapsedSeconds * 1000);
  }

  private void endPeriod()
  {
    final double now = loop.now();
    periodEnded(now - periodStart);
    periods.add(new RedundancyResult.Period(
        periodStart,
        periodSubQueries / (now - periodStart),
        share(periodExtra, periodSubQueries),
        share(periodWithin, periodAnswered),
        predicts() ? periodPredicted / Math.max(1, periodSubQueries) : null,
        modelUtilisation(),
        replicationFactor()
    ));
    periodStart = now;
    periodSubQueries = 0;
    periodExtra = 0;
    periodAnswered = 0;
    periodWithin = 0;
    periodPredicted = 0;
    Arrays.fill(periodPrimaries, 0);
    periodQueryMillis.clear();
    periodResponseMillis.clear();
    periodServiceMillis.clear();
  }

  /** The figures of the run, with the share of queries over τ the run's latency histogram gives. */
  public RedundancyResult result(double queriesOverSlo)
  {
    final boolean spare = replicationFactor() != null;
    return new RedundancyResult(
        mode,
        settings.sloMillis(),
        subQueries,
        extra,
        share(extra, subQueries),
        share(withinSlo, answered),
        queriesOverSlo,
        predicts() ? predictedSum / Math.max(1, subQueries) : null,
        spare ? periods.stream().mapToDouble(RedundancyResult.Period::replicationFactor).average().orElse(1) : null,
        List.copyOf(periods)
    );
  }

  private boolean inWindow(double time)
  {
    return time >= measureFrom && time < measureTo;
  }

  private static double share(long part, long whole)
  {
    return whole == 0 ? 0 : (double) part / whole;
  }

  protected final String id(int node)
  {
    return nodeIds.get(node);
  }

  protected final int index(String id)
  {
    return nodeIndex.get(id);
  }

  /** The ids of the nodes serving {@code segment} now. */
  protected final List<String> holderIds(Segment segment)
  {
    final IntArrayList holders = segment.loadedHolders();
    final List<String> ids = new ArrayList<>(holders.size());
    for (int i = 0; i < holders.size(); i++) {
      ids.add(nodeIds.get(holders.getInt(i)));
    }
    return ids;
  }

  /** The simulated clock in nanoseconds, as the core's latency windows read time. */
  protected final LongSupplier nanoClock()
  {
    return () -> Math.round(loop.now() * 1e9);
  }

  /** The value at quantile {@code q} of {@code values} (sorts them); NaN if empty. */
  protected static double quantile(DoubleArrayList values, double q)
  {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    values.sort(null);
    return values.getDouble(Math.max(0, Math.min(values.size() - 1, (int) Math.ceil(q * values.size()) - 1)));
  }

  protected static double mean(DoubleArrayList values)
  {
    double sum = 0;
    for (int i = 0; i < values.size(); i++) {
      sum += values.getDouble(i);
    }
    return values.isEmpty() ? Double.NaN : sum / values.size();
  }
}
