package org.getafix.core.placement;

import org.getafix.core.placement.packing.GetafixStrategy;
import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.SegmentLoad;
import org.getafix.core.placement.plan.UnplacedSegment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Keeps the plan in force until it no longer serves, and then changes as little of it as serves again, loading at
 * most a budgeted share of the data set per hour to rebalance it. Every round's plan is packed afresh from estimates
 * that wander a little (popularity, capacity), so the fresh plan differs from the last in a few segments even when
 * nothing changed; adopting each one reloads data from deep storage round after round (live, 6 to 13 times the data
 * set per hour under a steady workload). Druid's own balancer moves a segment only when its cost function improves;
 * here a replica moves only to bring the peak load back within a bound, and only as the budget allows.
 *
 * <p>The plan in force is first brought up to date (the <em>kept</em> plan): each segment keeps its row, except that a
 * segment the plan in force does not know (new), or plans on a node that is no longer placeable, or only on stragglers
 * ({@link GetafixStrategy#stragglers}), is placed onto the kept plan where it raises the utilisation least, on no
 * straggler, and so is a segment with fewer than {@value #BACKED_UP_HOLDERS} holders that the fresh plan has given more
 * for {@value #GROW_AFTER_ROUNDS} rounds in a row (it grew hot, or its only holder became unstable), once the budget
 * below affords its new holders, or at once if its holders are all unstable. A segment the
 * fresh plan has given fewer holders for {@value #SHRINK_AFTER_ROUNDS} rounds in a row (it cooled) drops those that
 * carry the least of its load, which frees memory and loads nothing; one that grows back within {@value
 * #FLAPPING_SHRINK_AFTER_ROUNDS} rounds of shrinking waits that long the next time. Both waits are there because a
 * segment at the edge of the hot floor ({@link PlacementConstraints#hotLoadShare}) flips in and out of it with the
 * estimates' noise, and each flip in would load again the replica the last flip out dropped.
 *
 * <p>The peak of a plan is the largest node utilisation, load routed by the plan's shares over the node's capacity,
 * relative to the cluster's mean (total load over total capacity), so it is 1 for a perfect fit. While the kept
 * plan's peak exceeds the fresh plan's by more than {@link PlacementConstraints#minPlanGain}, the kept plan changes the
 * row of one segment on its most utilised node at a time, to the segment's fresh row or with that node's replica moved
 * to another node, whichever relieves that node most per byte it loads and raises no other node to its level, until
 * the peak is back within half the bound (so that the next round's noise does not start it again). A change that
 * loads waits for the budget ({@link PlacementConstraints#maxRebalanceDataPerHour}) unless it relieves a straggler,
 * the kept peak is more than {@value #URGENT_PEAK_RATIO} times the fresh one (and then only until it is not), or the
 * first plan, or one under new constraints, was adopted less than {@value #SETTLING_ROUNDS} rounds ago. More holders
 * that the fresh plan gives a segment that has {@value #BACKED_UP_HOLDERS} only split its load: they are such a change,
 * taken while a node the segment loads is past the bound. A grown segment's holders come first: those that do not wait
 * (a backup, or while settling) are charged to the budget all the same, so that repairs wait until they are paid for.
 * A plan whose repair waits stays in force
 * ({@link Reason#THROTTLED}). Only when no change can reach the bound is the fresh plan adopted whole, and that waits
 * for the budget too unless the peak is urgent. The fresh plan is also adopted when the constraints change, when the
 * kept plan does not fit a node's memory, and on the first round.
 *
 * <p>Not thread-safe; one per planning loop, like {@link PlanningRound}.
 */
public final class PlanKeeper
{
  /** Why the round's plan is what it is. */
  public enum Reason
  {
    /** No plan was in force: the fresh one is adopted. */
    FIRST,
    /** The gate is off ({@link PlacementConstraints#minPlanGain} 0): every fresh plan is adopted. */
    UNGATED,
    /** The constraints changed since the plan in force was made. */
    CONSTRAINTS,
    /** The kept plan would overfill a node's memory. */
    MEMORY,
    /** No change of the kept plan's rows, one segment at a time, could bring its peak within the bound. */
    GAIN,
    /** The kept plan is in force, with {@link Verdict#repaired} of its rows changed to bring its peak within it. */
    KEPT,
    /**
     * The kept plan is in force though its peak is past the bound: the loads that would bring it back wait for the
     * rebalancing budget ({@link PlacementConstraints#maxRebalanceDataPerHour}).
     */
    THROTTLED
  }

  /** Why a segment's holders changed in a round. */
  public enum Cause
  {
    /** The fresh plan was adopted whole ({@link Verdict#reason} says why). */
    ADOPTED,
    /** The plan in force did not know the segment. */
    NEW,
    /** A node of its row in force is no longer placeable. */
    NODE_LEFT,
    /** Its row in force placed it on stragglers only. */
    OFF_STRAGGLERS,
    /** The fresh plan gave it more holders, up to {@value #BACKED_UP_HOLDERS}, for {@value #GROW_AFTER_ROUNDS} rounds. */
    GREW,
    /** More holders split its load while a node it loads was past the bound. */
    SPLIT,
    /** The fresh plan gave it fewer holders long enough: it dropped those that carried least of its load. */
    SHRANK,
    /** Its row changed to bring the peak back within the bound. */
    REPAIR
  }

  /**
   * A segment whose holders the round's plan changes, so that an operator can tell each load and drop the plan asks
   * for from its reason.
   *
   * @param before its holders in the plan in force before the round
   * @param after  its holders in the round's plan
   * @param detail for a split or a repair: the node it relieved, that node's utilisation against the bound, and
   *               whether the budget paid for it or why it did not have to; empty otherwise
   */
  public record HolderChange(String segmentId, Set<String> before, Set<String> after, Cause cause, String detail)
  {
    public HolderChange
    {
      before = Set.copyOf(before);
      after = Set.copyOf(after);
    }
  }

  /**
   * A round's verdict.
   *
   * @param plan      the plan for the round: the fresh one, or the kept one
   * @param reason    why
   * @param keptPeak  the kept plan's peak utilisation relative to the mean, NaN before a plan was in force
   * @param freshPeak the fresh plan's
   * @param patched   segments of the kept plan placed anew (new, grown, off a node that left or off stragglers)
   * @param repaired  segments of the kept plan whose rows changed to bring its peak within the bound
   * @param deferred  segments whose repair or growth would load and waits for the rebalancing budget
   * @param changes   the segments whose holders differ from the plan in force before the round, and why
   */
  public record Verdict(
      PlacementPlan plan,
      Reason reason,
      double keptPeak,
      double freshPeak,
      int patched,
      int repaired,
      int deferred,
      List<HolderChange> changes
  )
  {
    public Verdict
    {
      changes = List.copyOf(changes);
    }

    public boolean adopted()
    {
      return reason != Reason.KEPT && reason != Reason.THROTTLED;
    }
  }

  /**
   * Rounds in a row a fresh plan must give a segment more holders before the kept plan loads one: at the edge of the
   * hot floor a segment's fresh row can ask for a second holder for a single round now and then, and each such round
   * would load a replica that the cooled segment drops again {@value #SHRINK_AFTER_ROUNDS} rounds later.
   */
  static final int GROW_AFTER_ROUNDS = 3;

  /**
   * Holders a segment gains without waiting: the floors of the fresh plan (the hot floor, an unstable holder's backup)
   * ask for two at most, besides {@link PlacementConstraints#minReplicas}. A fresh row with more splits the segment's
   * load, and which segment a packing splits moves with the estimates' noise from round to round (a young segment
   * asked for four or six holders for a few rounds while its load fell); those holders only lower the peak, which is
   * the repair's to judge and the budget's to pace.
   */
  static final int BACKED_UP_HOLDERS = 2;

  /**
   * How far above the fresh plan's peak the kept plan's must be for its repair not to wait for the budget, until it is
   * back under. Under the steady workloads of the simulator's scenarios, with every repair let through, it drifted to
   * about 1.35 times at most; a Historical that joins or comes back to an even cluster of three, or one that slows to
   * half its speed, makes 1.5 or more.
   */
  static final double URGENT_PEAK_RATIO = 1.5;

  /**
   * Rounds after a fresh plan is adopted whole as the first or under new constraints in which repairs do not wait for
   * the budget: 5 minutes of 5 s. The estimates the first plan was packed from are a round's or two, and until they
   * settle the plan in force needs repairs that are part of realising it, not churn. A plan adopted because the kept
   * one could not be repaired, or did not fit, was packed from settled estimates: were its rounds free too, each
   * adoption within them would be free, and start them again.
   */
  static final int SETTLING_ROUNDS = 60;

  /** How many seconds of the rebalancing budget may be spent at once. */
  static final int BURST_SECONDS = 300;

  /** Rounds in a row a fresh plan must give a segment fewer holders before the kept plan drops one: 3 minutes of 5 s. */
  static final int SHRINK_AFTER_ROUNDS = 36;

  /**
   * How long a segment that grew back within this many rounds of shrinking waits before it shrinks again: 32 times
   * {@value #SHRINK_AFTER_ROUNDS} rounds, about an hour and a half of 5 s. At the edge of the hot floor a segment
   * flips in and out with the estimates' noise every few minutes, and each flip in reloads the replica the last flip
   * out dropped; kept that long, its second replica costs memory instead.
   */
  static final int FLAPPING_SHRINK_AFTER_ROUNDS = 32 * SHRINK_AFTER_ROUNDS;

  /**
   * How far above the even share of the bytes a node may hold and still be given a segment the kept plan places, as
   * the fresh plan's segment balancer tolerates above the even count (hysteresis against the next round's noise).
   */
  static final double HOLDING_SLACK = 0.05;
  /**
   * The most a segment placed for even holdings may raise a node's utilisation (relative to the mean): a cold segment's
   * place hardly matters to the load, a hot one's does, and it goes where it raises the utilisation least.
   */
  static final double NEGLIGIBLE_UTILISATION = 0.05;

  private final LoadBudget budget = new LoadBudget();
  private PlacementPlan inForce;
  private PlacementConstraints constraintsInForce;
  /** Segment id → rounds in a row the fresh plan gave it fewer holders than the plan in force. */
  private Map<String, Integer> cooling = new HashMap<>();
  /** Segment id → rounds in a row the fresh plan gave it more holders than the plan in force. */
  private Map<String, Integer> growing = new HashMap<>();
  /** Rounds planned so far: the clock of {@link #shrunkAt} and {@link #adoptedAt}. */
  private long round;
  /** The round a fresh plan was last adopted whole as the first or under new constraints. */
  private long adoptedAt;
  /** Segment id → the round it last shrank. */
  private final Map<String, Long> shrunkAt = new HashMap<>();
  /** Segments that grew back within {@value #FLAPPING_SHRINK_AFTER_ROUNDS} rounds of shrinking. */
  private final Set<String> flapping = new HashSet<>();

  /**
   * The plan for a round whose strategy made {@code fresh}.
   *
   * @param constraints    the round's; their {@link PlacementConstraints#minPlanGain} is how far, as a fraction, the
   *                       kept plan's peak may exceed the fresh plan's before it takes fresh rows (0 adopts every fresh
   *                       plan)
   * @param segments       the round's segments with their loads and sizes
   * @param nodes          the placeable nodes with their capacities and memory
   * @param currentHolders segment id → the nodes that hold or load it now
   * @param roundSeconds   how long a round lasts, which the rebalancing budget accrues
   */
  public Verdict next(
      PlacementPlan fresh,
      PlacementConstraints constraints,
      List<SegmentLoad> segments,
      List<NodeCapacity> nodes,
      Map<String, Set<String>> currentHolders,
      double roundSeconds
  )
  {
    final double minGain = constraints.minPlanGain();
    round++;
    final Reason early;
    if (inForce == null) {
      early = Reason.FIRST;
    } else if (!(minGain > 0)) {
      early = Reason.UNGATED;
    } else if (!constraints.equals(constraintsInForce)) {
      early = Reason.CONSTRAINTS;
    } else {
      early = null;
    }
    final Map<String, NodeCapacity> placeable = new LinkedHashMap<>();
    nodes.forEach(n -> placeable.put(n.nodeId(), n));
    final Peak peak = new Peak(placeable, segments);
    final double freshPeak = peak.of(fresh.nodeLoads(segments));
    if (early != null) {
      return adopt(verdict(fresh, early, Double.NaN, freshPeak, 0, new Repair(0, 0), Map.of()), constraints);
    }
    final Set<String> stragglers = stragglers(nodes);
    final Map<String, SegmentLoad> bySegment = new HashMap<>();
    segments.forEach(segment -> bySegment.put(segment.segmentId(), segment));
    budget.refill(constraints.maxRebalanceDataPerHour(), segments, roundSeconds);
    // The rows the plan in force keeps, in the fresh plan's order; the others are placed after, onto what they left.
    final Map<String, Map<String, Double>> rows = new LinkedHashMap<>();
    final List<String> patched = new ArrayList<>();
    final List<String> splits = new ArrayList<>();
    final List<String> grows = new ArrayList<>();
    final Map<String, Double> routed = new HashMap<>();
    final Map<String, Long> held = new HashMap<>();
    final Map<String, Integer> stillCooling = new HashMap<>();
    final Map<String, Integer> stillGrowing = new HashMap<>();
    final Map<String, Why> causes = new HashMap<>();
    final int backedUp = Math.max(constraints.minReplicas(), BACKED_UP_HOLDERS);
    for (Map.Entry<String, Map<String, Double>> freshRow : fresh.shares().entrySet()) {
      final String segment = freshRow.getKey();
      final Map<String, Double> keptRow = inForce.sharesOf(segment);
      final Cause misplaced = keptRow.isEmpty() ? Cause.NEW
                              : !placeable.keySet().containsAll(keptRow.keySet()) ? Cause.NODE_LEFT
                              : stragglers.containsAll(keptRow.keySet())
                                && !stragglers.containsAll(freshRow.getValue().keySet()) ? Cause.OFF_STRAGGLERS
                              : null;
      if (misplaced != null) {
        rows.put(segment, null);
        patched.add(segment);
        causes.put(segment, new Why(misplaced, ""));
        continue;
      }
      Map<String, Double> row = keptRow;
      if (keptRow.size() < freshRow.getValue().size()) {
        final int rounds = growing.getOrDefault(segment, 0) + 1;
        if (rounds >= GROW_AFTER_ROUNDS && keptRow.size() >= backedUp) {
          splits.add(segment);
        } else if (rounds >= GROW_AFTER_ROUNDS) {
          grows.add(segment);
        }
        stillGrowing.put(segment, rounds);
      } else if (keptRow.size() > freshRow.getValue().size()) {
        final int rounds = cooling.getOrDefault(segment, 0) + 1;
        if (rounds >= (flapping.contains(segment) ? FLAPPING_SHRINK_AFTER_ROUNDS : SHRINK_AFTER_ROUNDS)) {
          row = shrink(keptRow, freshRow.getValue(), stragglers);
          shrunkAt.put(segment, round);
          causes.put(segment, new Why(Cause.SHRANK, ""));
        } else {
          stillCooling.put(segment, rounds);
        }
      }
      rows.put(segment, row);
      account(row, bySegment.get(segment), 1, routed, held);
    }
    // What a repair brings the peak back within, and what a placed segment may raise a node to on its way to even
    // holdings.
    final double repairTarget = freshPeak * (1 + minGain / 2);
    for (String segment : patched) {
      final Map<String, Double> row = place(
          bySegment.get(segment),
          inForce.sharesOf(segment),
          fresh.sharesOf(segment),
          placeable,
          stragglers,
          routed,
          held,
          peak,
          repairTarget
      );
      rows.put(segment, row);
      account(row, bySegment.get(segment), 1, routed, held);
    }
    final double bound = freshPeak * (1 + minGain);
    final boolean settling = round - adoptedAt <= SETTLING_ROUNDS;
    final Set<String> unstable = new HashSet<>();
    nodes.stream().filter(NodeCapacity::unstable).forEach(node -> unstable.add(node.nodeId()));
    final double urgentPeak = settling ? 0 : freshPeak * URGENT_PEAK_RATIO;
    // The holders segments gain beyond their rows in force, those that grew first. A segment that grew hot gains them
    // when the budget affords them, like a repair: at the edge of the hot floor a segment flips in and out with the
    // estimates' noise, and without a budget each flip in reloads the replica the last flip out dropped (live, every
    // steady-state load was one). A backup for holders that stall now and then, and the settling of a new plan, do
    // not wait, and are charged all the same. Holders that only split a segment's load are a repair: taken while a
    // node it loads is past the bound, and paid for as the repair's loads are (an urgent one is not charged).
    final List<String> gains = new ArrayList<>(grows);
    gains.addAll(splits);
    int deferredGains = 0;
    for (int i = 0; i < gains.size(); i++) {
      final String segment = gains.get(i);
      final boolean split = i >= grows.size();
      final Map<String, Double> kept = rows.get(segment);
      final SegmentLoad load = bySegment.get(segment);
      // Why the gain need not wait for the budget; null when it must.
      final String free;
      if (split) {
        if (!(peak.of(routed) > bound)) {
          break;
        }
        if (kept.entrySet().stream()
                .noneMatch(cell -> cell.getValue() > 0 && peak.utilisation(cell.getKey(), routed) > bound)) {
          continue;
        }
        free = peak.of(routed) > urgentPeak ? "the peak is urgent" : null;
      } else {
        free = unstable.containsAll(kept.keySet()) ? "a backup for unstable holders" : settling ? "while settling" : null;
      }
      account(kept, load, -1, routed, held);
      final Map<String, Double> row = place(
          load, kept, fresh.sharesOf(segment), placeable, stragglers, routed, held, peak, repairTarget
      );
      final long loads = bytesLoaded(row, load, currentHolders.getOrDefault(segment, Set.of()));
      if (free == null && !budget.affords(loads)) {
        account(kept, load, 1, routed, held);
        deferredGains++;
        continue;
      }
      rows.put(segment, row);
      account(row, load, 1, routed, held);
      if (!split || free == null) {
        budget.spend(loads);
      }
      grewBack(segment);
      stillGrowing.remove(segment);
      patched.add(segment);
      causes.put(segment, new Why(
          split ? Cause.SPLIT : Cause.GREW,
          free == null ? "paid from the budget" : free + ", not budgeted"
      ));
    }
    cooling = stillCooling;
    growing = stillGrowing;
    shrunkAt.keySet().retainAll(fresh.shares().keySet());
    flapping.retainAll(fresh.shares().keySet());
    Repair repair = new Repair(0, deferredGains);
    if (peak.of(routed) > bound) {
      repair = repair(rows, fresh, bySegment, placeable, stragglers, routed, held, currentHolders, peak,
                      repairTarget, budget, urgentPeak, causes);
      repair = new Repair(repair.repaired(), repair.deferred() + deferredGains);
    }
    final double keptPeak = peak.of(routed);
    if (keptPeak > bound && repair.deferred() == 0) {
      // Adopting the fresh plan whole is the largest repair of all: it waits for the budget like any other, unless the
      // peak is far off.
      final long loads = bytesLoaded(fresh, bySegment, currentHolders);
      if (keptPeak > urgentPeak || budget.affords(loads)) {
        budget.spend(loads);
        return adopt(verdict(fresh, Reason.GAIN, keptPeak, freshPeak, patched.size(), repair, Map.of()), constraints);
      }
      repair = new Repair(repair.repaired(), changedRows(fresh, rows));
    }
    if (overfills(held, placeable)) {
      return adopt(verdict(fresh, Reason.MEMORY, keptPeak, freshPeak, patched.size(), repair, Map.of()), constraints);
    }
    final List<UnplacedSegment> unplaced = new ArrayList<>();
    for (UnplacedSegment u : fresh.unplaced()) {
      if (!inForce.sharesOf(u.segmentId()).equals(rows.get(u.segmentId()))) {
        unplaced.add(u);
      }
    }
    final Reason reason = keptPeak > bound ? Reason.THROTTLED : Reason.KEPT;
    final Verdict verdict = verdict(new PlacementPlan(rows, unplaced), reason, keptPeak, freshPeak, patched.size(),
                                    repair, causes);
    inForce = verdict.plan();
    return verdict;
  }

  /** Why the round changed a segment's row; see {@link HolderChange}. */
  private record Why(Cause cause, String detail)
  {
  }

  /**
   * The round's verdict on {@code plan}, with each segment whose holders differ from the plan in force before the
   * round and why: the cause recorded in {@code causes}, or {@link Cause#ADOPTED} when none is (a fresh plan adopted
   * whole).
   */
  private Verdict verdict(
      PlacementPlan plan,
      Reason reason,
      double keptPeak,
      double freshPeak,
      int patched,
      Repair repair,
      Map<String, Why> causes
  )
  {
    final List<HolderChange> changes = new ArrayList<>();
    for (Map.Entry<String, Map<String, Double>> row : plan.shares().entrySet()) {
      final Set<String> before = inForce == null ? Set.of() : inForce.sharesOf(row.getKey()).keySet();
      if (!before.equals(row.getValue().keySet())) {
        final Why why = causes.get(row.getKey());
        changes.add(new HolderChange(
            row.getKey(),
            before,
            row.getValue().keySet(),
            why == null ? Cause.ADOPTED : why.cause(),
            why == null ? "" : why.detail()
        ));
      }
    }
    return new Verdict(plan, reason, keptPeak, freshPeak, patched, repair.repaired(), repair.deferred(), changes);
  }

  /**
   * Changes rows of {@code rows}, one segment at a time, until the peak is at most {@code target} or no change helps.
   * Each time, of the segments the most utilised node carries load for, the change that relieves that node most per
   * byte loaded (on nodes that do not hold the segment now) without raising another node to the peak or past its
   * memory: either the segment's fresh row, or its row with the most utilised node's replica moved to another node
   * that is no straggler. The second is what keeps a repair small when the fresh plan reaches its lower peak by an
   * arrangement that differs everywhere: taking fresh rows alone often cannot lower the peak at all, and the whole
   * fresh plan would then be adopted, loading a dozen replicas or more. Returns the rows changed.
   */
  private static Repair repair(
      Map<String, Map<String, Double>> rows,
      PlacementPlan fresh,
      Map<String, SegmentLoad> bySegment,
      Map<String, NodeCapacity> placeable,
      Set<String> stragglers,
      Map<String, Double> routed,
      Map<String, Long> held,
      Map<String, Set<String>> currentHolders,
      Peak peak,
      double target,
      LoadBudget budget,
      double urgentPeak,
      Map<String, Why> causes
  )
  {
    final Set<String> waiting = new HashSet<>();
    final Map<String, Set<String>> carriedBy = new HashMap<>();
    rows.forEach((segment, row) -> row.forEach((node, share) -> {
      if (share > 0) {
        carriedBy.computeIfAbsent(node, n -> new HashSet<>()).add(segment);
      }
    }));
    int repaired = 0;
    while (peak.of(routed) > target) {
      final String hottest = peak.hottest(routed);
      final double peakUtilisation = peak.utilisation(hottest, routed);
      // Moving load off a straggler is what keeps queries from waiting on it, and a peak far past the fresh plan's is
      // no estimate noise (a Historical joined, came back or slowed down): neither waits for the budget.
      final boolean budgeted = !stragglers.contains(hottest) && peakUtilisation <= urgentPeak;
      String best = null;
      Map<String, Double> bestRow = null;
      long bestLoads = 0;
      double bestScore = 0;
      for (String segment : carriedBy.getOrDefault(hottest, Set.of())) {
        final Map<String, Double> row = rows.get(segment);
        final SegmentLoad load = bySegment.get(segment);
        if (load == null) {
          continue;
        }
        final List<Map<String, Double>> changes = new ArrayList<>();
        final Map<String, Double> freshRow = fresh.sharesOf(segment);
        if (!freshRow.isEmpty() && !freshRow.equals(row) && placeable.keySet().containsAll(freshRow.keySet())) {
          changes.add(freshRow);
        }
        for (String node : placeable.keySet()) {
          if (!row.containsKey(node) && !stragglers.contains(node) && placeable.get(node).capacity() > 0) {
            changes.add(moved(row, hottest, node));
          }
        }
        final Set<String> holding = currentHolders.getOrDefault(segment, Set.of());
        for (Change change : scored(changes, row, load, hottest, peakUtilisation, placeable, routed, held, holding, peak)) {
          if (budgeted && !budget.affords(change.loads())) {
            waiting.add(segment);
          } else if (change.score() > bestScore) {
            best = segment;
            bestRow = change.row();
            bestLoads = change.loads();
            bestScore = change.score();
          }
        }
      }
      if (best == null) {
        break;
      }
      final String taken = best;
      final Map<String, Double> before = rows.get(taken);
      final Map<String, Double> after = bestRow;
      account(before, bySegment.get(taken), -1, routed, held);
      account(after, bySegment.get(taken), 1, routed, held);
      before.keySet().forEach(node -> carriedBy.getOrDefault(node, new HashSet<>()).remove(taken));
      after.forEach((node, share) -> {
        if (share > 0) {
          carriedBy.computeIfAbsent(node, n -> new HashSet<>()).add(taken);
        }
      });
      rows.put(taken, after);
      waiting.remove(taken);
      causes.put(taken, new Why(Cause.REPAIR, String.format(
          Locale.ROOT,
          "relieves %s at %.3f of the mean utilisation against a bound of %.3f, %s",
          hottest,
          peakUtilisation,
          target,
          budgeted ? "paid from the budget"
                   : stragglers.contains(hottest) ? "a straggler's, not budgeted"
                   : urgentPeak == 0 ? "while settling, not budgeted" : "urgent, not budgeted"
      )));
      if (budgeted) {
        budget.spend(bestLoads);
      }
      repaired++;
    }
    return new Repair(repaired, waiting.size());
  }

  /**
   * What a repair did.
   *
   * @param repaired segments whose rows it changed
   * @param deferred segments whose change would have helped but waits for the budget
   */
  private record Repair(int repaired, int deferred)
  {
  }

  /** How many of {@code rows} the fresh plan would change. */
  private static int changedRows(PlacementPlan fresh, Map<String, Map<String, Double>> rows)
  {
    int changed = 0;
    for (Map.Entry<String, Map<String, Double>> row : rows.entrySet()) {
      if (!fresh.sharesOf(row.getKey()).equals(row.getValue())) {
        changed++;
      }
    }
    return changed;
  }

  /** {@code row} with {@code from}'s replica, and its share, on {@code to} instead, in the same place. */
  private static Map<String, Double> moved(Map<String, Double> row, String from, String to)
  {
    final Map<String, Double> moved = new LinkedHashMap<>();
    row.forEach((node, share) -> moved.put(node.equals(from) ? to : node, share));
    return moved;
  }

  /**
   * A segment's row as a repair would change it, the bytes it loads, and the load it takes off the hottest node per
   * byte loaded.
   */
  private record Change(Map<String, Double> row, long loads, double score)
  {
  }

  /** Each change of {@code row} that relieves {@code hottest}, raises no other node to its level and fits the memory. */
  private static List<Change> scored(
      List<Map<String, Double>> changes,
      Map<String, Double> row,
      SegmentLoad load,
      String hottest,
      double peakUtilisation,
      Map<String, NodeCapacity> placeable,
      Map<String, Double> routed,
      Map<String, Long> held,
      Set<String> holding,
      Peak peak
  )
  {
    final List<Change> scored = new ArrayList<>();
    for (Map<String, Double> change : changes) {
      final double relief = load.load() * (row.getOrDefault(hottest, 0.0) - change.getOrDefault(hottest, 0.0));
      if (!(relief > 0)) {
        continue;
      }
      boolean fits = true;
      for (Map.Entry<String, Double> cell : change.entrySet()) {
        final String node = cell.getKey();
        final double after = routed.getOrDefault(node, 0.0) + load.load() * (cell.getValue() - row.getOrDefault(node, 0.0));
        if (!node.equals(hottest) && peak.utilisation(node, after) >= peakUtilisation
            || !row.containsKey(node) && held.getOrDefault(node, 0L) + load.sizeBytes() > placeable.get(node).maxSizeBytes()) {
          fits = false;
          break;
        }
      }
      if (fits) {
        final long loaded = bytesLoaded(change, load, holding);
        // A byte's worth added to every cost, so that a change that loads nothing ranks by its relief.
        scored.add(new Change(change, loaded, relief / (loaded + 1.0)));
      }
    }
    return scored;
  }

  /** Marks {@code segment} flapping if it grows back soon after it shrank, and not if it grew after a long while. */
  private void grewBack(String segment)
  {
    final Long shrunk = shrunkAt.remove(segment);
    if (shrunk != null && round - shrunk <= FLAPPING_SHRINK_AFTER_ROUNDS) {
      flapping.add(segment);
    } else {
      flapping.remove(segment);
    }
  }

  /** Node utilisations relative to the cluster's mean. */
  private static final class Peak
  {
    private final Map<String, NodeCapacity> nodes;
    private final double mean;

    Peak(Map<String, NodeCapacity> nodes, List<SegmentLoad> segments)
    {
      this.nodes = nodes;
      double totalLoad = 0;
      for (SegmentLoad segment : segments) {
        totalLoad += segment.load();
      }
      double totalCapacity = 0;
      for (NodeCapacity node : nodes.values()) {
        totalCapacity += node.capacity();
      }
      this.mean = totalLoad > 0 && totalCapacity > 0 ? totalLoad / totalCapacity : 0;
    }

    /** {@code node}'s utilisation relative to the mean if routed {@code load}; 0 with no load anywhere. */
    double utilisation(String node, double load)
    {
      if (!(mean > 0) || !(load > 0)) {
        return 0;
      }
      // A node of no capacity that is routed load is the worst a plan can do: as if it had the least of any.
      final double capacity = nodes.get(node).capacity();
      return load / (capacity > 0 ? capacity : Double.MIN_NORMAL) / mean;
    }

    double utilisation(String node, Map<String, Double> routed)
    {
      return utilisation(node, routed.getOrDefault(node, 0.0));
    }

    /** The most utilised placeable node. */
    String hottest(Map<String, Double> routed)
    {
      String hottest = null;
      double most = -1;
      for (String node : nodes.keySet()) {
        final double utilisation = utilisation(node, routed);
        if (utilisation > most) {
          hottest = node;
          most = utilisation;
        }
      }
      return hottest;
    }

    /** The peak: 1 with no load or no capacity, where no plan can do better than another. */
    double of(Map<String, Double> routed)
    {
      if (!(mean > 0)) {
        return 1;
      }
      double peak = 0;
      for (String node : nodes.keySet()) {
        peak = Math.max(peak, utilisation(node, routed));
      }
      return peak;
    }
  }

  private Verdict adopt(Verdict verdict, PlacementConstraints constraints)
  {
    if (verdict.reason() != Reason.GAIN && verdict.reason() != Reason.MEMORY) {
      adoptedAt = round;
    }
    cooling = new HashMap<>();
    growing = new HashMap<>();
    inForce = verdict.plan();
    constraintsInForce = constraints;
    return verdict;
  }

  /** The bytes {@code row} loads: a replica of {@code segment} on each of its nodes that does not hold it now. */
  private static long bytesLoaded(Map<String, Double> row, SegmentLoad segment, Set<String> holding)
  {
    long loaded = 0;
    if (segment != null) {
      for (String node : row.keySet()) {
        if (!holding.contains(node)) {
          loaded += segment.sizeBytes();
        }
      }
    }
    return loaded;
  }

  /** The bytes {@code plan} loads on the nodes that do not hold its segments now. */
  private static long bytesLoaded(
      PlacementPlan plan,
      Map<String, SegmentLoad> bySegment,
      Map<String, Set<String>> currentHolders
  )
  {
    long loaded = 0;
    for (Map.Entry<String, Map<String, Double>> row : plan.shares().entrySet()) {
      loaded += bytesLoaded(row.getValue(), bySegment.get(row.getKey()), currentHolders.getOrDefault(row.getKey(), Set.of()));
    }
    return loaded;
  }

  /**
   * Bytes the rounds may still load to rebalance: a bucket that fills at the configured share of the data set per
   * hour and holds at most {@value #BURST_SECONDS} seconds' worth, or the largest segment when that is more (so that
   * a segment larger than the burst still gets its turn). It starts empty, so that a Coordinator that just took over
   * does not spend a burst at once; a whole fresh plan adopted because repairs could not reach the bound leaves it in
   * debt, which later rounds pay back before rebalancing again.
   */
  private static final class LoadBudget
  {
    private double bytes;
    private double capacity;

    void refill(double sharePerHour, List<SegmentLoad> segments, double roundSeconds)
    {
      long dataBytes = 0;
      long largest = 0;
      for (SegmentLoad segment : segments) {
        dataBytes += segment.sizeBytes();
        largest = Math.max(largest, segment.sizeBytes());
      }
      final double perSecond = sharePerHour * dataBytes / 3600;
      capacity = Math.max(perSecond * BURST_SECONDS, sharePerHour > 0 ? largest : 0);
      bytes = Math.min(capacity, bytes + perSecond * Math.max(0, roundSeconds));
    }

    boolean affords(long loads)
    {
      return loads == 0 || loads <= bytes;
    }

    void spend(long loads)
    {
      bytes -= loads;
    }
  }

  private static Set<String> stragglers(List<NodeCapacity> nodes)
  {
    final double[] capacity = new double[nodes.size()];
    for (int i = 0; i < capacity.length; i++) {
      capacity[i] = nodes.get(i).capacity();
    }
    final boolean[] straggler = GetafixStrategy.stragglers(capacity);
    final Set<String> stragglers = new HashSet<>();
    for (int i = 0; i < straggler.length; i++) {
      if (straggler[i]) {
        stragglers.add(nodes.get(i).nodeId());
      }
    }
    return stragglers;
  }

  private static boolean overfills(Map<String, Long> held, Map<String, NodeCapacity> nodes)
  {
    for (Map.Entry<String, Long> node : held.entrySet()) {
      final NodeCapacity capacity = nodes.get(node.getKey());
      if (capacity != null && node.getValue() > capacity.maxSizeBytes()) {
        return true;
      }
    }
    return false;
  }


  /**
   * A segment's row in the kept plan when its row in force no longer does: as many holders as its fresh row, those in
   * force that are still placeable first, then the nodes whose utilisation it raises least and that have the memory
   * (the kept plan's loads, not the fresh plan's), stragglers never. Among them, those that hold at most the even share
   * of the bytes (plus {@link #HOLDING_SLACK} of it) and that it would not raise past {@code evenWithin} (relative
   * utilisation) come first, as the fresh plan's balancer evens out segment counts within the load bound: a segment that draws next to
   * no load raises the least utilised node's utilisation least, so otherwise every new or orphaned cold segment would go
   * to that one node, round after round, until it held nearly all of them. As many holders as
   * the fresh row gives a load share split it evenly; the rest (a hot floor's or a backup's copy) carry none. With no
   * room anywhere, the fresh row.
   */
  private static Map<String, Double> place(
      SegmentLoad segment,
      Map<String, Double> inForceRow,
      Map<String, Double> freshRow,
      Map<String, NodeCapacity> placeable,
      Set<String> stragglers,
      Map<String, Double> routed,
      Map<String, Long> held,
      Peak peak,
      double evenWithin
  )
  {
    if (segment == null) {
      return freshRow;
    }
    final int loaded = loadCarrying(freshRow);
    final double part = segment.load() / Math.max(1, loaded);
    final List<String> holders = new ArrayList<>();
    inForceRow.keySet().stream()
              .filter(node -> placeable.containsKey(node) && !stragglers.contains(node))
              .limit(freshRow.size())
              .forEach(holders::add);
    final List<NodeCapacity> eligible = placeable.values().stream()
                                                 .filter(node -> node.capacity() > 0 && !stragglers.contains(node.nodeId()))
                                                 .toList();
    long eligibleHeld = (long) freshRow.size() * segment.sizeBytes();
    for (NodeCapacity node : eligible) {
      eligibleHeld += held.getOrDefault(node.nodeId(), 0L);
    }
    final double evenHeld = eligible.isEmpty() ? 0 : (double) eligibleHeld / eligible.size();
    while (holders.size() < freshRow.size()) {
      String best = null;
      double bestUtilisation = Double.POSITIVE_INFINITY;
      boolean bestEven = false;
      for (NodeCapacity node : eligible) {
        final long nodeHeld = held.getOrDefault(node.nodeId(), 0L);
        if (holders.contains(node.nodeId()) || nodeHeld + segment.sizeBytes() > node.maxSizeBytes()) {
          continue;
        }
        final double routedBefore = routed.getOrDefault(node.nodeId(), 0.0);
        final double utilisation = (routedBefore + part) / node.capacity();
        final double after = peak.utilisation(node.nodeId(), routedBefore + part);
        final boolean even = nodeHeld <= evenHeld * (1 + HOLDING_SLACK)
                             && after - peak.utilisation(node.nodeId(), routedBefore) <= NEGLIGIBLE_UTILISATION
                             && after <= evenWithin;
        if (even && !bestEven || even == bestEven && utilisation < bestUtilisation) {
          best = node.nodeId();
          bestUtilisation = utilisation;
          bestEven = even;
        }
      }
      if (best == null) {
        return freshRow;
      }
      holders.add(best);
    }
    final Map<String, Double> row = new LinkedHashMap<>();
    for (int i = 0; i < holders.size(); i++) {
      row.put(holders.get(i), i < loaded ? 1.0 / loaded : 0.0);
    }
    return row;
  }

  /**
   * A cooled segment's row with as many holders as its fresh row: those that carried most of its load kept (a
   * straggler last), as many of them carrying load, evenly, as the fresh row has.
   */
  private static Map<String, Double> shrink(
      Map<String, Double> keptRow,
      Map<String, Double> freshRow,
      Set<String> stragglers
  )
  {
    final List<String> holders = new ArrayList<>(keptRow.keySet());
    holders.sort(Comparator.comparing((String node) -> stragglers.contains(node))
                           .thenComparing(node -> -keptRow.get(node))
                           .thenComparing(node -> !freshRow.containsKey(node))
                           .thenComparing(Comparator.naturalOrder()));
    final int loaded = loadCarrying(freshRow);
    final Map<String, Double> row = new LinkedHashMap<>();
    for (int i = 0; i < freshRow.size(); i++) {
      row.put(holders.get(i), i < loaded ? 1.0 / loaded : 0.0);
    }
    return row;
  }

  /** How many holders of {@code row} carry load. */
  private static int loadCarrying(Map<String, Double> row)
  {
    int loaded = 0;
    for (double share : row.values()) {
      if (share > 0) {
        loaded++;
      }
    }
    return loaded;
  }

  /** Adds {@code row}'s load and bytes to the nodes' totals ({@code sign} 1), or takes them off (-1). */
  private static void account(
      Map<String, Double> row,
      SegmentLoad segment,
      int sign,
      Map<String, Double> routed,
      Map<String, Long> held
  )
  {
    if (segment != null) {
      row.forEach((node, share) -> {
        routed.merge(node, sign * share * segment.load(), Double::sum);
        held.merge(node, sign * segment.sizeBytes(), Long::sum);
      });
    }
  }
}
