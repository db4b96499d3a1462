package org.getafix.core.wire;

import org.getafix.core.routing.RoutingTable;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;

/**
 * The routing table the Coordinator serves at {@value #PATH} and Brokers poll:
 * {@code {"version": n, "generatedAt": "<ISO-8601>", "segments": {"<segmentId>": {"<host:port>": share}}}}.
 *
 * <p>Reading is lenient field by field, so that a bad entry costs only itself: a missing version reads as -1, a
 * missing or unparseable timestamp as 0, a segment whose value is not an object and a share that is not a number
 * (Jackson writes NaN as the string "NaN") reach {@link RoutingTable#of} as garbage, which drops and counts them.
 *
 * @param version     the plan version; changes only when the routing does, and is the endpoint's ETag
 * @param generatedAt when the Coordinator's round produced it
 * @param segments    segment id → Historical (host:port) → share of the segment's queries
 */
public record RoutingTableMessage(Long version, String generatedAt, Map<String, ?> segments)
{
  public static final String PATH = "/druid/coordinator/v1/getafix/routing";

  /** The table a Broker routes with. */
  public RoutingTable toTable()
  {
    final Map<String, Map<String, ?>> rows = new HashMap<>();
    if (segments != null) {
      segments.forEach((segment, row) -> rows.put(segment, row instanceof Map<?, ?> map ? asRow(map) : null));
    }
    return RoutingTable.of(version == null ? -1 : version, generatedAtMillis(), rows);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, ?> asRow(Map<?, ?> row)
  {
    // JSON object keys are always strings.
    return (Map<String, ?>) row;
  }

  private long generatedAtMillis()
  {
    if (generatedAt == null) {
      return 0;
    }
    try {
      return OffsetDateTime.parse(generatedAt).toInstant().toEpochMilli();
    }
    catch (DateTimeParseException e) {
      return 0;
    }
  }
}
