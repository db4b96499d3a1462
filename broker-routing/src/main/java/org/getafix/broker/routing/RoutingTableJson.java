package org.getafix.broker.routing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.core.routing.RoutingTable;
import org.joda.time.DateTime;

import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads the Coordinator's routing table, {@code {"version": n, "generatedAt": "<ISO-8601>", "segments":
 * {"<segmentId>": {"<host:port>": share}}}}. Only malformed JSON or a body that is not an object fails; a bad field
 * costs only itself: a missing version reads as -1, a bad timestamp as 0, and a share that is not a number (or is
 * "NaN") is handed to {@link RoutingTable#of} as NaN, which drops and counts it.
 */
final class RoutingTableJson
{
  private RoutingTableJson()
  {
  }

  static RoutingTable parse(ObjectMapper jsonMapper, byte[] body) throws IOException
  {
    final JsonNode root = jsonMapper.readTree(body);
    if (root == null || !root.isObject()) {
      throw new IOException("routing table must be a JSON object, got [" + (root == null ? "nothing" : root.getNodeType()) + "]");
    }
    final long version = root.path("version").canConvertToLong() ? root.path("version").asLong() : -1;
    final Map<String, Map<String, Double>> shares = new HashMap<>();
    final JsonNode segments = root.path("segments");
    final Iterator<Map.Entry<String, JsonNode>> segmentIt = segments.fields();
    while (segmentIt.hasNext()) {
      final Map.Entry<String, JsonNode> segment = segmentIt.next();
      final Map<String, Double> row = new HashMap<>();
      final Iterator<Map.Entry<String, JsonNode>> nodeIt = segment.getValue().fields();
      while (nodeIt.hasNext()) {
        final Map.Entry<String, JsonNode> node = nodeIt.next();
        row.put(node.getKey(), share(node.getValue()));
      }
      shares.put(segment.getKey(), row);
    }
    return RoutingTable.of(version, generatedAtMillis(root.path("generatedAt")), shares);
  }

  private static double share(JsonNode value)
  {
    if (value.isNumber()) {
      return value.doubleValue();
    }
    // Jackson writes non-finite doubles as strings ("NaN", "Infinity") when allowed to; anything else is garbage.
    return Double.NaN;
  }

  private static long generatedAtMillis(JsonNode value)
  {
    if (!value.isTextual()) {
      return 0;
    }
    try {
      return DateTime.parse(value.asText()).getMillis();
    }
    catch (IllegalArgumentException e) {
      return 0;
    }
  }
}
