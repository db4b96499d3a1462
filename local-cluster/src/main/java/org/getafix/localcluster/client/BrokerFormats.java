package org.getafix.localcluster.client;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.MatureRunReport;
import org.getafix.core.wire.QueryContextKeys;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the quality monitor's formats as a client receives them: the coverage in a Broker's response context and
 * the mature runs its quality endpoint lists. The formats are getafix-core's records; a reader ignores the fields
 * they derive (a coverage's {@code total} and {@code timedOut}).
 */
public final class BrokerFormats
{
  private static final ObjectMapper MAPPER =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private BrokerFormats()
  {
  }

  /**
   * The coverage in a response context (the parsed {@code X-Druid-Response-Context} header); null when it has none,
   * i.e. the query ran without a budget.
   */
  public static Coverage coverage(JsonNode responseContext)
  {
    return coverageOf(responseContext.path(QueryContextKeys.COVERAGE));
  }

  /** A coverage object itself; null when {@code node} is not one. */
  public static Coverage coverageOf(JsonNode node)
  {
    if (!node.isObject() || !node.path("answered").isNumber() || !node.path("late").isNumber()) {
      return null;
    }
    try {
      return MAPPER.treeToValue(node, Coverage.class);
    }
    catch (Exception e) {
      return null;
    }
  }

  /** The entries of the quality endpoint's {@code recent} list, newest first; entries that do not read are skipped. */
  public static List<MatureRunReport> recentMatureRuns(JsonNode qualityState)
  {
    final List<MatureRunReport> runs = new ArrayList<>();
    for (JsonNode entry : qualityState.path("recent")) {
      try {
        final MatureRunReport run = MAPPER.treeToValue(entry, MatureRunReport.class);
        if (run.queryId() != null) {
          runs.add(run);
        }
      }
      catch (Exception e) {
        // Not a mature run: skipped, as documented.
      }
    }
    return runs;
  }
}
