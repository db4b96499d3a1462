package org.getafix.core.realise;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * What realising the plan means for one segment right now, decided by a {@link RealisePolicy}: how many replicas it
 * should have, and which servers may gain or lose one. Let L be the servers that serve it and P the live servers the
 * plan puts it on. Acting on a plan, the segment wants |P| replicas, or |L ∪ P| while a planned holder does not
 * serve it yet under {@link LoadBeforeDrop#ALL_PLANNED_LOADED}; loads go to P \ L only, largest share first, and
 * drops take replicas outside P only. Not acting, it keeps L and is loaded up to the floor. Always at least the
 * floor.
 *
 * @param segmentId the segment
 * @param replicas  the replica count the segment should have
 * @param acting    whether the plan is realised for it (loads onto P \ L, drops outside P)
 * @param floor     the policy's floor
 * @param loaded    L
 * @param loading   servers already loading it, which need no second load
 * @param planned   P; empty when not acting
 */
public record ReplicaTarget(
    String segmentId,
    int replicas,
    boolean acting,
    int floor,
    Set<String> loaded,
    Set<String> loading,
    Set<String> planned
)
{
  /** Loads missing to reach the floor: these are never throttled by the churn budget, and may go anywhere. */
  public int floorDeficit()
  {
    int held = loaded.size();
    for (String server : loading) {
      if (!loaded.contains(server)) {
        held++;
      }
    }
    return Math.max(0, floor - held);
  }

  /** Loaded replicas beyond {@link #replicas}: how many to drop, for a caller whose queue does not count them. */
  public int surplus()
  {
    return Math.max(0, loaded.size() - replicas);
  }

  /**
   * The candidates to load the segment onto, in the order to try them: planned servers that neither serve nor load
   * it, largest planned share first, then by name. Empty when not acting.
   *
   * @param name  a candidate's server name
   * @param share the segment's planned share on a server
   */
  public <T> List<T> loadOrder(Collection<T> candidates, Function<T, String> name, ToDoubleFunction<String> share)
  {
    final List<T> order = new ArrayList<>();
    if (!acting) {
      return order;
    }
    for (T candidate : candidates) {
      final String server = name.apply(candidate);
      if (planned.contains(server) && !loaded.contains(server) && !loading.contains(server)) {
        order.add(candidate);
      }
    }
    order.sort(
        Comparator.comparingDouble((T c) -> -share.applyAsDouble(name.apply(c))).thenComparing(name)
    );
    return order;
  }

  /**
   * The candidates the segment may be dropped from, in the caller's order: servers outside the plan, never every
   * loaded replica. Empty when not acting. How many of them to drop is the caller's (see {@link #surplus}).
   */
  public <T> List<T> dropOrder(Collection<T> candidates, Function<T, String> name)
  {
    final List<T> order = new ArrayList<>();
    if (!acting) {
      return order;
    }
    int loadedOffered = 0;
    for (T candidate : candidates) {
      final String server = name.apply(candidate);
      if (!planned.contains(server)) {
        order.add(candidate);
        if (loaded.contains(server)) {
          loadedOffered++;
        }
      }
    }
    if (!order.isEmpty() && loadedOffered == loaded.size()) {
      order.remove(order.size() - 1);
    }
    return order;
  }

  /**
   * The loads to issue now, for a caller that issues them all at once: {@link #loadOrder} over {@code candidates},
   * the first {@link #floorDeficit} free, the others while {@code budget} has loads left.
   *
   * @param bytes the segment's size, what each paid load spends in bytes
   */
  public List<String> loadsWithin(
      ChurnBudget budget,
      Collection<String> candidates,
      ToDoubleFunction<String> share,
      long bytes
  )
  {
    final List<String> loads = new ArrayList<>();
    budget.admitLoads(loadOrder(candidates, Function.identity(), share).iterator(), floorDeficit(), bytes)
          .forEachRemaining(loads::add);
    return loads;
  }

  /**
   * The drops to issue now, for a caller that counts replicas itself: the first {@link #surplus} of
   * {@link #dropOrder} over {@code loadedInOrder}, while {@code budget} has drops left.
   */
  public List<String> dropsWithin(ChurnBudget budget, List<String> loadedInOrder)
  {
    final List<String> order = dropOrder(loadedInOrder, Function.identity());
    final List<String> drops = new ArrayList<>();
    budget.admitDrops(order.subList(0, Math.min(surplus(), order.size())).iterator()).forEachRemaining(drops::add);
    return drops;
  }
}
