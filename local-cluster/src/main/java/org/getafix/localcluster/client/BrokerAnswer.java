package org.getafix.localcluster.client;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.core.wire.QueryContextKeys;

/**
 * One Broker answer with what a budgeted query needs besides the body: the HTTP status (a bad budget is a 400, a
 * shed query a 429) and the response context header, which holds the coverage.
 *
 * @param status   HTTP status
 * @param body     the parsed body (a JSON null node when empty)
 * @param context  the parsed {@code X-Druid-Response-Context} header ({@code {}} when absent)
 * @param millis   time to the complete answer
 */
public record BrokerAnswer(int status, JsonNode body, JsonNode context, long millis)
{
  /** The raw {@code getafixCoverage} entry (a missing node for a query without a budget). */
  public JsonNode coverage()
  {
    return context.path(QueryContextKeys.COVERAGE);
  }

  public boolean isSuccess()
  {
    return status / 100 == 2;
  }
}
