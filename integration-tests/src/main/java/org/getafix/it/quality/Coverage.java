package org.getafix.it.quality;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a budgeted query's answer covers, as the quality monitor states it in the {@code getafixCoverage} entry of the
 * Broker's {@code X-Druid-Response-Context} header (docs/configuration.md, "Budgeted queries and answer quality").
 *
 * @param answered          segments whose Historical answered within the budget
 * @param total             segments the query reads
 * @param late              segments cut off at the budget
 * @param missingIntervals  intervals of the late segments (as listed; the list may be truncated)
 * @param timedOut          whether the budget cut any sub-query off, i.e. the answer is partial
 */
public record Coverage(int answered, int total, int late, int missingIntervals, boolean timedOut)
{
  /** The response-context key of the coverage entry. */
  public static final String KEY = "getafixCoverage";

  /** Answered share of the segments; 1 for a query that read none. */
  public double answeredShare()
  {
    return total == 0 ? 1.0 : answered / (double) total;
  }

  /**
   * The coverage in a response context (the parsed header, or a mature-run entry's {@code coverage}); null when it
   * has none, i.e. the query ran without a budget.
   */
  public static Coverage fromResponseContext(JsonNode context)
  {
    return of(context.path(KEY));
  }

  /** A coverage object itself ({@code {"answered":…,"total":…}}); null when {@code node} is not one. */
  public static Coverage of(JsonNode node)
  {
    if (!node.isObject() || !node.path("total").isNumber()) {
      return null;
    }
    return new Coverage(
        node.path("answered").asInt(),
        node.path("total").asInt(),
        node.path("late").asInt(),
        node.path("missingIntervals").size(),
        node.path("timedOut").asBoolean(false)
    );
  }
}
