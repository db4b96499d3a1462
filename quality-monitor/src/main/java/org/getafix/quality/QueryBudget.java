package org.getafix.quality;

import org.apache.druid.error.InvalidInput;
import org.apache.druid.query.QueryContext;
import org.getafix.core.quality.control.BudgetController;
import org.getafix.core.wire.QueryContextKeys;

import javax.annotation.Nullable;

/**
 * A query's time budget in whole milliseconds: asked for with the context key {@value QueryContextKeys#BUDGET_MS}
 * (a positive number, or a string holding one), or set by a {@link BudgetControl} controller, which then hears how
 * long the answer took: the controller's budget itself, or the query's share of it ({@link BudgetSplit}).
 */
public final class QueryBudget
{
  private final long millis;
  @Nullable
  private final BudgetController setBy;
  private final long controllerMillis;
  private final boolean split;

  private QueryBudget(long millis, @Nullable BudgetController setBy, long controllerMillis, boolean split)
  {
    if (millis <= 0) {
      throw new IllegalArgumentException("budget must be positive, got [" + millis + "]");
    }
    this.millis = millis;
    this.setBy = setBy;
    this.controllerMillis = controllerMillis;
    this.split = split;
  }

  /**
   * The budget {@code context} asks for, or null if it asks for none.
   *
   * @throws org.apache.druid.error.DruidException (invalid input, HTTP 400) for a value that is not a positive, finite
   *                                               number of milliseconds no larger than {@code maxBudgetMillis}
   */
  @Nullable
  public static QueryBudget askedIn(QueryContext context, long maxBudgetMillis)
  {
    final Object value = context.get(QueryContextKeys.BUDGET_MS);
    if (value == null) {
      return null;
    }
    final double millis = parse(value);
    if (!Double.isFinite(millis) || millis <= 0 || millis > maxBudgetMillis) {
      throw InvalidInput.exception(
          "Query context key [%s] must be a positive number of milliseconds, at most [%,d], but was [%s]",
          QueryContextKeys.BUDGET_MS,
          maxBudgetMillis,
          value
      );
    }
    final long whole = (long) Math.ceil(millis);
    return new QueryBudget(whole, null, whole, false);
  }

  /** The budget {@code controller} grants a query now: whole milliseconds, at least 1. */
  static QueryBudget setBy(BudgetController controller)
  {
    final long millis = controllerMillis(controller);
    return new QueryBudget(millis, controller, millis, false);
  }

  /**
   * A query's share, {@code splitMillis} (rounded to whole milliseconds, at least 1), of the budget {@code controller}
   * grants each of its queries now, {@code controllerMillis}.
   */
  static QueryBudget splitFrom(BudgetController controller, long controllerMillis, double splitMillis)
  {
    return new QueryBudget(Math.max(1, Math.round(splitMillis)), controller, controllerMillis, true);
  }

  /** {@code controller}'s budget per query now, as a query gets it: whole milliseconds, at least 1. */
  static long controllerMillis(BudgetController controller)
  {
    return Math.max(1, Math.round(controller.budget()));
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

  public long millis()
  {
    return millis;
  }

  /** The controller that set this budget, null for a budget the query asked for. */
  @Nullable
  BudgetController setBy()
  {
    return setBy;
  }

  /** The controller's budget per query when this one started: {@link #millis()} unless it was {@link #split()}. */
  long controllerMillis()
  {
    return controllerMillis;
  }

  /** Whether this is a query's share of its controller's budget rather than that budget itself. */
  boolean split()
  {
    return split;
  }
}
