package org.getafix.quality;

import com.google.inject.Inject;
import org.apache.druid.query.Query;
import org.getafix.core.quality.control.BudgetController;
import org.getafix.core.quality.control.EwmaResponseTime;
import org.getafix.core.quality.split.PendingQueriesSplit;

import javax.annotation.Nullable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Controller-set budgets split among the queries pending on each controller ({@code budgetSplit}): a query that
 * starts beside others budgeted by the same controller (of its datasource or lane) gets its share of the controller's
 * budget times their number, less what the others still hold of theirs ({@link PendingQueriesSplit}). A query is
 * pending from its start until it ends or its budget runs out, whichever comes first: one past its budget holds
 * nothing more, and one that Druid planned but never ran leaves nothing behind. The split reads each query class's
 * demand, the mean time of its answers that came whole, and its quality profile ({@link QualityProfiles}).
 *
 * <p>With the split off every query gets its controller's budget, and nothing is tracked or learned.
 */
public class BudgetSplit implements BudgetedQuery.Listener
{
  @Nullable
  private final PendingQueriesSplit split;
  private final QualityProfiles profiles;
  /** Per query class, an EWMA of the response times of its budgeted answers that came whole. */
  private final Map<String, EwmaResponseTime> wholeAnswerTimes = new ConcurrentHashMap<>();
  private final Map<BudgetController, List<PendingQuery>> pending = new ConcurrentHashMap<>();

  @Inject
  public BudgetSplit(QualityConfig config, QualityProfiles profiles)
  {
    this.split = config.budgetSplit();
    this.profiles = profiles;
  }

  /**
   * The budget of {@code query}, which starts at {@code startMillis} under {@code controller}; counted pending on that
   * controller until {@link #ended}. The split of one controller's queries is computed and counted under that
   * controller's lock, so that queries starting at once each see the others' budgets.
   */
  QueryBudget start(Query<?> query, BudgetController controller, long startMillis)
  {
    if (split == null) {
      return QueryBudget.setBy(controller);
    }
    final long controllerMillis = QueryBudget.controllerMillis(controller);
    final String queryClass = QualityProfiles.queryClass(query);
    final List<PendingQuery> onController = pending.computeIfAbsent(controller, c -> new ArrayList<>());
    synchronized (onController) {
      onController.removeIf(other -> other.remainingMillis(startMillis) <= 0);
      final Map<String, PendingQueriesSplit.Estimate> estimates = new HashMap<>();
      final List<PendingQueriesSplit.Pending> others = new ArrayList<>(onController.size());
      for (PendingQuery other : onController) {
        others.add(new PendingQueriesSplit.Pending(
            estimates.computeIfAbsent(other.queryClass(), this::estimate),
            other.remainingMillis(startMillis)
        ));
      }
      final PendingQueriesSplit.Estimate own = estimates.computeIfAbsent(queryClass, this::estimate);
      final double share = split.budget(controllerMillis, own, others);
      final QueryBudget budget = QueryBudget.splitFrom(controller, controllerMillis, share);
      onController.add(new PendingQuery(budget, queryClass, startMillis));
      return budget;
    }
  }

  /** The query with {@code budget} has answered or failed: it is no longer pending. */
  void ended(QueryBudget budget)
  {
    if (!budget.split()) {
      return;
    }
    final List<PendingQuery> onController = pending.get(budget.setBy());
    synchronized (onController) {
      onController.removeIf(query -> query.budget() == budget);
    }
  }

  /** An answer that came whole took as long as its class needs: its demand. */
  @Override
  public void onAnswered(BudgetedQuery<?> query, List<?> rows, long elapsedMillis)
  {
    if (split == null || query.coverage().timedOut()) {
      return;
    }
    final EwmaResponseTime times = wholeAnswerTimes.computeIfAbsent(
        QualityProfiles.queryClass(query.query()),
        queryClass -> new EwmaResponseTime(EwmaResponseTime.DEFAULT_ALPHA)
    );
    synchronized (times) {
      times.record(elapsedMillis);
    }
  }

  private PendingQueriesSplit.Estimate estimate(String queryClass)
  {
    return new PendingQueriesSplit.Estimate(wholeAnswerMillis(queryClass), profiles.profile(queryClass));
  }

  /** The mean time of {@code queryClass}'s whole answers, NaN before the first. */
  private double wholeAnswerMillis(String queryClass)
  {
    final EwmaResponseTime times = wholeAnswerTimes.get(queryClass);
    if (times == null) {
      return Double.NaN;
    }
    synchronized (times) {
      return times.estimate();
    }
  }

  /** Per query class, its demand as the split reads it: the mean time of its whole answers. */
  Map<String, Double> demands()
  {
    final Map<String, Double> state = new TreeMap<>();
    wholeAnswerTimes.keySet().forEach(queryClass -> state.put(queryClass, wholeAnswerMillis(queryClass)));
    return state;
  }

  /** A query pending on a controller: its budget from its start. */
  private record PendingQuery(QueryBudget budget, String queryClass, long startMillis)
  {
    long remainingMillis(long nowMillis)
    {
      return startMillis + budget.millis() - nowMillis;
    }
  }
}
