package org.getafix.quality;

import org.apache.druid.error.InvalidInput;
import org.apache.druid.query.QueryContext;
import org.getafix.core.quality.control.BudgetController;
import org.getafix.core.wire.QueryContextKeys;

import javax.annotation.Nullable;

/**
 * A query's time budget in whole milliseconds: asked for with the context key {@value QueryContextKeys#BUDGET_MS}
 * (a positive number, or a string holding one), or set by a {@link BudgetControl} controller, which then hears how
 * long the answer took.
 */
public final class QueryBudget
{
  private final long millis;
  @Nullable
  private final BudgetController setBy;

  private QueryBudget(long millis, @Nullable BudgetController setBy)
  {
    if (millis <= 0) {
      throw new IllegalArgumentException("budget must be positive, got [" + millis + "]");
    }
    this.millis = millis;
    this.setBy = setBy;
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
    return new QueryBudget((long) Math.ceil(millis), null);
  }

  /** The budget {@code controller} grants a query now: whole milliseconds, at least 1. */
  static QueryBudget setBy(BudgetController controller)
  {
    return new QueryBudget(Math.max(1, Math.round(controller.budget())), controller);
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
}
