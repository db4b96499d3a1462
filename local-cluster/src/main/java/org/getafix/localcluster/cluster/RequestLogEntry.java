package org.getafix.localcluster.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Optional;

/**
 * One native query a Druid node ran, as its file request logger writes it: a line of tab-separated timestamp,
 * remote address, the query's statistics and the query.
 *
 * @param stats the statistics Druid logs with the query: {@code query/time}, {@code success}, and on failure
 *              {@code exception} (a query cancelled by its client fails)
 * @param query the query as the node received it
 */
public record RequestLogEntry(String timestamp, JsonNode stats, JsonNode query)
{
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** The entry a line holds, or empty for a line that is not a whole native-query entry. */
  static Optional<RequestLogEntry> parse(String line)
  {
    final String[] fields = line.split("\t", -1);
    if (fields.length != 4) {
      return Optional.empty();
    }
    try {
      return Optional.of(new RequestLogEntry(fields[0], MAPPER.readTree(fields[2]), MAPPER.readTree(fields[3])));
    }
    catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  /** The query's id ({@code queryId} in its context), or an empty string. */
  public String queryId()
  {
    return query.path("context").path("queryId").asText("");
  }

  /** Why the query failed, as Druid logs it, or an empty string. */
  public String exception()
  {
    return stats.path("exception").asText("");
  }

  public boolean succeeded()
  {
    return stats.path("success").asBoolean(false);
  }
}
