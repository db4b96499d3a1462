package org.getafix.simulator.settings;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Set;

/** Reads typed fields of one JSON object and names the field, by its path, in every error. */
final class JsonFields
{
  private final JsonNode node;
  private final String path;

  JsonFields(JsonNode node, String path)
  {
    if (node == null || !node.isObject()) {
      throw new ScenarioException(describe(path) + " must be a JSON object");
    }
    this.node = node;
    this.path = path;
  }

  String path(String field)
  {
    return path.isEmpty() ? field : path + "." + field;
  }

  private static String describe(String path)
  {
    return path.isEmpty() ? "the scenario" : "field '" + path + "'";
  }

  /** Fails on a field this reader does not know, so a typo does not silently fall back to a default. */
  void rejectUnknown(Set<String> known)
  {
    final Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      final String name = names.next();
      if (!known.contains(name)) {
        throw new ScenarioException("unknown field '" + path(name) + "'; known fields here: " + known);
      }
    }
  }

  boolean has(String field)
  {
    return node.has(field) && !node.get(field).isNull();
  }

  JsonNode get(String field)
  {
    return node.get(field);
  }

  String string(String field, String fallback)
  {
    if (!has(field)) {
      if (fallback == null) {
        throw new ScenarioException("missing field '" + path(field) + "'");
      }
      return fallback;
    }
    final JsonNode v = node.get(field);
    if (!v.isTextual() || v.asText().isBlank()) {
      throw new ScenarioException("field '" + path(field) + "' must be a non-empty string, got " + v);
    }
    return v.asText();
  }

  String optionalString(String field)
  {
    return has(field) ? string(field, null) : null;
  }

  double number(String field, Double fallback, double min, double max)
  {
    if (!has(field)) {
      if (fallback == null) {
        throw new ScenarioException("missing field '" + path(field) + "'");
      }
      return fallback;
    }
    final JsonNode v = node.get(field);
    if (!v.isNumber()) {
      throw new ScenarioException("field '" + path(field) + "' must be a number, got " + v);
    }
    final double d = v.asDouble();
    if (!Double.isFinite(d) || d < min || d > max) {
      throw new ScenarioException(
          "field '" + path(field) + "' must be in [" + min + ", " + max + "], got " + v
      );
    }
    return d;
  }

  boolean bool(String field, boolean fallback)
  {
    if (!has(field)) {
      return fallback;
    }
    final JsonNode v = node.get(field);
    if (!v.isBoolean()) {
      throw new ScenarioException("field '" + path(field) + "' must be true or false, got " + v);
    }
    return v.asBoolean();
  }

  Double optionalNumber(String field, double min, double max)
  {
    return has(field) ? number(field, null, min, max) : null;
  }

  long integer(String field, Long fallback, long min, long max)
  {
    if (!has(field)) {
      if (fallback == null) {
        throw new ScenarioException("missing field '" + path(field) + "'");
      }
      return fallback;
    }
    final JsonNode v = node.get(field);
    if (!v.isIntegralNumber() && !(v.isNumber() && v.asDouble() == Math.rint(v.asDouble()))) {
      throw new ScenarioException("field '" + path(field) + "' must be an integer, got " + v);
    }
    final long l = v.asLong();
    if (l < min || l > max) {
      throw new ScenarioException("field '" + path(field) + "' must be in [" + min + ", " + max + "], got " + v);
    }
    return l;
  }

  JsonNode array(String field, boolean required)
  {
    if (!has(field)) {
      if (required) {
        throw new ScenarioException("missing field '" + path(field) + "'");
      }
      return null;
    }
    final JsonNode v = node.get(field);
    if (!v.isArray()) {
      throw new ScenarioException("field '" + path(field) + "' must be an array, got " + v);
    }
    return v;
  }

  JsonFields object(String field)
  {
    return has(field) ? new JsonFields(node.get(field), path(field)) : null;
  }
}
