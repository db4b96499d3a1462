package org.getafix.core.redundancy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * Copies of a sub-query sent with it, up front, to other holders of its segments, where a hedge ({@link HedgePolicy})
 * goes only once the sub-query is late. The first complete answer wins, as with a hedge. Two ways to choose the
 * sub-queries that get a copy:
 * <ul>
 *   <li>{@link Mode#SPARE}, sPARE's partial replication: {@link PartialReplicator}'s factor r, found by its search
 *   one step per period, copies the share r − 1 of the sub-queries, and {@link TokenArbiter} (TAD) sends each
 *   segment's copy to the fastest of its other holders with a token left, so that a slow holder, which returns its
 *   tokens late, gets fewer copies;</li>
 *   <li>{@link Mode#ZOOLANDER}: {@link ZoolanderModel} decides, per set of holders and period, whether a copy lifts
 *   the predicted share of answers within the latency bound τ to the target, from each holder's recent latency
 *   distribution and primary arrival rate; under high utilisation the queueing the copies add outweighs what they
 *   mask and it sends none. Its prediction is kept beside the measured share ({@link PeriodReport}).</li>
 * </ul>
 * The Broker's routing still chooses the primary; only the copies are chosen here. A segment gets one copy at most:
 * the copies of a sub-query are merged into one answer, and a segment answered twice there would count twice.
 *
 * <p>The latencies are the Broker's, answer times that already hold the Historical's queueing at the load of the
 * moment. The Zoolander model adds the M/G/1 queueing of that load once more, so its prediction errs low, towards
 * fewer copies.
 *
 * <p>Thread-safe: every method that counts locks the instance. The counts the modes read (primaries per node, attempt
 * latencies, first answers) are kept only while copies are in use, in this period or the last: a Broker where no
 * query asks for copies takes no lock per sub-query. Nothing here throws on garbage: a NaN or negative latency is not
 * recorded, and a segment with no other holder is left to its primary ({@link Copies#stranded}).
 */
public final class UpfrontRedundancy
{
  /** How the sub-queries that get a copy up front are chosen. */
  public enum Mode
  {
    /** None: only hedges, once late. */
    OFF,
    /** sPARE's partial replication factor and its token arbiter. */
    SPARE,
    /** Zoolander's model, from the holders' latency distributions and loads. */
    ZOOLANDER
  }

  /** Samples of one period kept at most, for its quantiles: more than a period of a busy Broker needs for a p99. */
  private static final int MAX_PERIOD_SAMPLES = 100_000;

  /**
   * The copies of one sub-query.
   *
   * @param byHolder  the other holders, in the order first chosen, each with the segments it answers as a copy; empty
   *                  if the sub-query goes without a copy
   * @param stranded  the segments no copy answers, in the order given (all of them when none is copied)
   * @param predicted Zoolander's predicted probability that the sub-query is answered within the bound (the primary,
   *                  or else all the copies, in time), NaN in the other modes
   */
  public record Copies<S>(Mode mode, Map<String, List<S>> byHolder, List<S> stranded, double predicted)
  {
    public boolean isEmpty()
    {
      return byHolder.isEmpty();
    }
  }

  /**
   * What one period saw.
   *
   * @param factor    sPARE's replication factor r for the next period
   * @param primaries sub-queries offered a copy in the period, in every mode, while copies are in use (0 otherwise)
   * @param copied    of them, those that got one
   * @param predicted Zoolander's mean predicted share within the bound of the sub-queries it judged, NaN if none
   * @param measured  the share of those answered within the bound, NaN if none
   * @param judged    how many sub-queries Zoolander judged
   */
  public record PeriodReport(double factor, long primaries, long copied, double predicted, double measured, long judged)
  {
  }

  private final RedundancySettings settings;
  private final NodeLatencies latencies;
  private final RaceLosses losses;
  private final PartialReplicator replicator;
  private final TokenArbiter arbiter;
  private final ZoolanderModel model;
  /** This period's primaries per node; last period's rates per second. */
  private final Map<String, long[]> primariesOf = new HashMap<>();
  private Map<String, Double> ratePerSecond = Map.of();
  /** This period's decisions per primary and other holders. */
  private final Map<List<String>, ZoolanderModel.Decision> decisions = new HashMap<>();
  private final Samples firstAnswers = new Samples();
  private final Samples attempts = new Samples();
  private long primaries;
  private long copied;
  private double predictedSum;
  private long judged;
  private long inTime;
  /** Whether some sub-query asked for copies this period or the last: only then are the counts kept. */
  private volatile boolean inUse;
  private boolean askedThisPeriod;

  /**
   * @param latencies each node's recent sub-query latencies, lost races at their time until cancelled
   * @param losses    each node's recent share of lost races, which the model takes as misses
   */
  public UpfrontRedundancy(
      RedundancySettings settings,
      NodeLatencies latencies,
      RaceLosses losses,
      RandomGenerator random
  )
  {
    this.settings = settings;
    this.latencies = latencies;
    this.losses = losses;
    this.replicator = new PartialReplicator(settings.replicator());
    this.arbiter = new TokenArbiter(settings.slotsPerNode(), TokenArbiter.ALL_CANDIDATES, random);
    // One copy per segment: two would be merged into one answer and count the segment twice.
    final ZoolanderSettings zoolander = settings.zoolander();
    this.model = new ZoolanderModel(new ZoolanderSettings(
        zoolander.networkMillis(),
        zoolander.perDuplicateMillis(),
        Math.min(2, zoolander.maxDuplicates()),
        zoolander.minGainPerDuplicate()
    ));
  }

  /**
   * The copies of a sub-query to {@code primary}, or null if {@code mode} is off. Each holder of a SPARE copy holds
   * one of its tokens until {@link #copyDone} or {@link #notSent} returns it.
   *
   * @param holders a segment's holders (the primary and nulls are skipped)
   */
  public <S> Copies<S> copies(
      Mode mode,
      String primary,
      List<S> segments,
      Function<? super S, ? extends List<String>> holders
  )
  {
    final boolean off = mode == null || mode == Mode.OFF;
    if (off && !inUse) {
      return null;
    }
    synchronized (this) {
      if (!off) {
        askedThisPeriod = true;
        inUse = true;
      }
      primaries++;
      primariesOf.computeIfAbsent(String.valueOf(primary), node -> new long[1])[0]++;
      return off || segments == null ? null : copiesIn(mode, primary, segments, holders);
    }
  }

  private <S> Copies<S> copiesIn(
      Mode mode,
      String primary,
      List<S> segments,
      Function<? super S, ? extends List<String>> holders
  )
  {
    final Copies<S> copies = mode == Mode.SPARE
                             ? spare(primary, segments, holders)
                             : zoolander(primary, segments, holders);
    if (!copies.isEmpty()) {
      copied++;
    }
    return copies;
  }

  private <S> Copies<S> spare(String primary, List<S> segments, Function<? super S, ? extends List<String>> holders)
  {
    if (replicator.copies() < 2) {
      return new Copies<>(Mode.SPARE, Map.of(), List.copyOf(segments), Double.NaN);
    }
    final Map<String, List<S>> byHolder = new LinkedHashMap<>();
    final List<S> stranded = new ArrayList<>();
    for (S segment : segments) {
      final List<String> others = others(primary, holders.apply(segment));
      String chosen = null;
      for (String other : others) {
        if (byHolder.containsKey(other)) {
          chosen = other;
          break;
        }
      }
      if (chosen == null) {
        final List<String> acquired = arbiter.acquire(1, others);
        chosen = acquired.isEmpty() ? null : acquired.get(0);
      }
      if (chosen == null) {
        stranded.add(segment);
      } else {
        byHolder.computeIfAbsent(chosen, holder -> new ArrayList<>()).add(segment);
      }
    }
    return copies(Mode.SPARE, byHolder, stranded, Double.NaN);
  }

  private <S> Copies<S> zoolander(String primary, List<S> segments, Function<? super S, ? extends List<String>> holders)
  {
    final Map<String, List<S>> byHolder = new LinkedHashMap<>();
    final List<S> stranded = new ArrayList<>();
    for (S segment : segments) {
      final List<String> others = others(primary, holders.apply(segment));
      final List<String> key = new ArrayList<>(others.size() + 1);
      key.add(primary);
      key.addAll(others);
      final ZoolanderModel.Decision decision = decisions.computeIfAbsent(key, this::decide);
      if (decision.nodes().size() < 2) {
        stranded.add(segment);
      } else {
        byHolder.computeIfAbsent(decision.nodes().get(1), holder -> new ArrayList<>()).add(segment);
      }
    }
    // The sub-query is in time if its primary is, or if every copy is (and the copies answer for every segment).
    final double primaryInTime = meetsAlone(primary);
    double copiesInTime = byHolder.isEmpty() || !stranded.isEmpty() ? 0 : 1;
    for (String holder : byHolder.keySet()) {
      copiesInTime *= meetsAlone(holder);
    }
    return copies(Mode.ZOOLANDER, byHolder, stranded, 1 - (1 - primaryInTime) * (1 - copiesInTime));
  }

  /** The decision for {@code key}: the primary first, then the other holders. */
  private ZoolanderModel.Decision decide(List<String> key)
  {
    final List<ZoolanderModel.Duplicate> others = new ArrayList<>(key.size() - 1);
    for (int i = 1; i < key.size(); i++) {
      others.add(duplicate(key.get(i)));
    }
    return model.decideAround(duplicate(key.get(0)), settings.boundMillis(), settings.serviceLevelTarget(), others, 1);
  }

  /**
   * A node as the model sees it: its recent latencies, with its lost races as misses (a straggler whose sub-queries
   * all lose to their copies would otherwise read as fast as the copies), and its primaries per second over the last
   * period (not every sub-query it answered: the model scales the load by the copies it decides on itself).
   */
  private ZoolanderModel.Duplicate duplicate(String node)
  {
    final LatencyDistribution latency = RaceLossAdjustedLatency.of(latencies.get(node), losses.lostShare(node));
    final double rate = ratePerSecond.getOrDefault(node, 0.0);
    return new ZoolanderModel.Duplicate(node, latency, rate, settings.slotsPerNode());
  }

  /** The predicted probability that {@code node} alone answers within the bound; 0 for a node never observed. */
  private double meetsAlone(String node)
  {
    return model.serviceLevel(settings.boundMillis(), List.of(duplicate(node)));
  }

  private static <S> Copies<S> copies(Mode mode, Map<String, List<S>> byHolder, List<S> stranded, double predicted)
  {
    if (byHolder.isEmpty()) {
      return new Copies<>(mode, Map.of(), Collections.unmodifiableList(stranded), predicted);
    }
    byHolder.replaceAll((holder, assigned) -> Collections.unmodifiableList(assigned));
    return new Copies<>(mode, Collections.unmodifiableMap(byHolder), Collections.unmodifiableList(stranded), predicted);
  }

  /** The distinct holders other than {@code primary}, in the order given, without nulls. */
  private static List<String> others(String primary, List<String> holders)
  {
    final List<String> others = new ArrayList<>(holders == null ? 0 : holders.size());
    for (int i = 0; holders != null && i < holders.size(); i++) {
      final String holder = holders.get(i);
      if (holder != null && !holder.equals(primary) && !others.contains(holder)) {
        others.add(holder);
      }
    }
    return others;
  }

  /** The copy to {@code holder} answered, failed or was cancelled after {@code millis}: its token goes back. */
  public synchronized void copyDone(Copies<?> copies, String holder, double millis)
  {
    if (copies.mode() == Mode.SPARE && copies.byHolder().containsKey(holder)) {
      arbiter.release(holder, millis);
    }
  }

  /** The copies were not sent (or not all of them): the tokens of {@code holders} go back unused. */
  public synchronized void notSent(Copies<?> copies, Iterable<String> holders)
  {
    if (copies.mode() != Mode.SPARE) {
      return;
    }
    for (String holder : holders) {
      if (copies.byHolder().containsKey(holder)) {
        arbiter.giveBack(holder);
      }
    }
  }

  /** One attempt at a sub-query, a primary, copy or hedge, took {@code millis}: the variability sPARE reads. */
  public void attempted(double millis)
  {
    if (!inUse) {
      return;
    }
    synchronized (this) {
      attempts.add(millis);
    }
  }

  /**
   * A sub-query offered copies had its first complete answer after {@code millis} (NaN if it had none): the target
   * metric sPARE lowers and, for Zoolander's, the measured service level.
   */
  public void answered(Copies<?> copies, double millis)
  {
    if (copies == null && !inUse) {
      return;
    }
    synchronized (this) {
      if (!Double.isNaN(millis)) {
        firstAnswers.add(millis);
      }
      if (copies != null && copies.mode() == Mode.ZOOLANDER && !Double.isNaN(copies.predicted())) {
        judged++;
        predictedSum += copies.predicted();
        if (millis <= settings.boundMillis()) {
          inTime++;
        }
      }
    }
  }

  /**
   * Ends a period of {@code seconds}: sPARE's search takes its step, the rates and decisions the model reads are
   * renewed, and the period's figures are returned.
   *
   * @param holderCount the Historicals the Broker queries, whose slots make up the tier's capacity
   */
  public synchronized PeriodReport endPeriod(double seconds, int holderCount)
  {
    if (seconds > 0 && Double.isFinite(seconds)) {
      final Map<String, Double> rates = new HashMap<>();
      primariesOf.forEach((node, count) -> rates.put(node, count[0] / seconds));
      ratePerSecond = rates;
      final double meanAttempt = attempts.mean();
      if (firstAnswers.size() > 0 && meanAttempt > 0 && holderCount > 0) {
        replicator.update(new PartialReplicator.Measurement(
            primaries / seconds,
            meanAttempt,
            (double) holderCount * settings.slotsPerNode(),
            firstAnswers.quantile(0.99),
            attempts.quantile(0.99) / meanAttempt
        ));
      }
    }
    final PeriodReport report = new PeriodReport(
        replicator.factor(),
        primaries,
        copied,
        judged == 0 ? Double.NaN : predictedSum / judged,
        judged == 0 ? Double.NaN : inTime / (double) judged,
        judged
    );
    inUse = askedThisPeriod;
    askedThisPeriod = false;
    primariesOf.clear();
    decisions.clear();
    firstAnswers.clear();
    attempts.clear();
    primaries = 0;
    copied = 0;
    predictedSum = 0;
    judged = 0;
    inTime = 0;
    return report;
  }

  /** sPARE's replication factor r now. */
  public double factor()
  {
    return replicator.factor();
  }

  /** One period's latencies, up to {@value #MAX_PERIOD_SAMPLES}. Guarded by the owner's lock. */
  private static final class Samples
  {
    private double[] values = new double[64];
    private int size;
    private double sum;

    void add(double millis)
    {
      if (!LatencyWindow.isValid(millis) || size == MAX_PERIOD_SAMPLES) {
        return;
      }
      if (size == values.length) {
        values = Arrays.copyOf(values, Math.min(MAX_PERIOD_SAMPLES, size * 2));
      }
      values[size++] = millis;
      sum += millis;
    }

    int size()
    {
      return size;
    }

    double mean()
    {
      return size == 0 ? Double.NaN : sum / size;
    }

    /** The nearest-rank quantile; sorts the samples in place, which is fine once the period is over. */
    double quantile(double q)
    {
      Arrays.sort(values, 0, size);
      return values[Math.min(size - 1, Math.max(0, (int) Math.ceil(q * size) - 1))];
    }

    void clear()
    {
      size = 0;
      sum = 0;
    }
  }
}
