package org.getafix.quality;

import com.google.common.collect.ImmutableMap;
import org.apache.druid.error.InvalidInput;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryContext;
import org.apache.druid.query.QueryContexts;

import javax.annotation.Nullable;
import java.util.Map;

/**
 * A query's time budget, from its context key {@value #BUDGET_KEY} (milliseconds: a positive number, or a string
 * holding one), and the absolute deadline the Broker derives from it when the query starts.
 *
 * <p>The deadline travels in the query's context as {@value #DEADLINE_KEY} (epoch milliseconds) from the
 * {@link BudgetedQuerySegmentWalker} to the per-Historical {@link BudgetedDruidClient}s; it counts only next to a
 * budget, so a deadline a client sends without one does nothing.
 */
public final class QueryBudget
{
  public static final String BUDGET_KEY = "getafixBudgetMs";
  public static final String DEADLINE_KEY = "getafixDeadlineMs";

  private final long budgetMillis;

  private QueryBudget(long budgetMillis)
  {
    this.budgetMillis = budgetMillis;
  }

  /**
   * The budget {@code context} asks for, or null if it asks for none.
   *
   * @throws org.apache.druid.error.DruidException (invalid input, HTTP 400) for a value that is not a positive, finite
   *                                               number of milliseconds no larger than {@code maxBudgetMillis}
   */
  @Nullable
  public static QueryBudget from(QueryContext context, long maxBudgetMillis)
  {
    final Object value = context.get(BUDGET_KEY);
    if (value == null) {
      return null;
    }
    final double millis = parse(value);
    if (!Double.isFinite(millis) || millis <= 0 || millis > maxBudgetMillis) {
      throw InvalidInput.exception(
          "Query context key [%s] must be a positive number of milliseconds, at most [%,d], but was [%s]",
          BUDGET_KEY,
          maxBudgetMillis,
          value
      );
    }
    return new QueryBudget((long) Math.ceil(millis));
  }

  /** A budget set by the Broker itself (a {@link BudgetControl} controller), not asked for by the query. */
  static QueryBudget ofMillis(long budgetMillis)
  {
    if (budgetMillis <= 0) {
      throw new IllegalArgumentException("budget must be positive, got [" + budgetMillis + "]");
    }
    return new QueryBudget(budgetMillis);
  }

  private static double parse(Object value)
  {
    if (value instanceof Number) {
      return ((Number) value).doubleValue();
    }
    if (value instanceof String) {
      try {
        return Double.parseDouble(((String) value).trim());
      }
      catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
    return Double.NaN;
  }

  /**
   * The absolute deadline of a query on its way to the Historicals, or null if it has no budget: only a query that
   * carries both keys (as {@link #stamp} leaves it) is budgeted.
   */
  @Nullable
  public static Long deadlineOf(Query<?> query)
  {
    final QueryContext context = query.context();
    if (context.get(BUDGET_KEY) == null || context.get(DEADLINE_KEY) == null) {
      return null;
    }
    return context.getLong(DEADLINE_KEY);
  }

  public long millis()
  {
    return budgetMillis;
  }

  /**
   * {@code query} with its budget (in whole milliseconds; a controller-set one is added here) and deadline,
   * {@code startMillis} plus the budget, and with the Broker's caches off: a
   * partial answer must not be stored as the answer, and a segment answered from the Broker's own cache would not
   * be counted in the coverage.
   */
  public <T> Query<T> stamp(Query<T> query, long startMillis)
  {
    final Map<String, Object> overrides = ImmutableMap.of(
        BUDGET_KEY, budgetMillis,
        DEADLINE_KEY, startMillis + budgetMillis,
        QueryContexts.USE_CACHE_KEY, false,
        QueryContexts.POPULATE_CACHE_KEY, false,
        QueryContexts.USE_RESULT_LEVEL_CACHE_KEY, false,
        QueryContexts.POPULATE_RESULT_LEVEL_CACHE_KEY, false
    );
    return query.withOverriddenContext(overrides);
  }
}
