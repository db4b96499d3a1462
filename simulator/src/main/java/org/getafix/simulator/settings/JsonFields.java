package org.getafix.simulator.settings;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.core.contract.Interval;
import org.getafix.core.contract.Knob;

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
      throw mustBe(field, "a non-empty string", v);
    }
    return v.asText();
  }

  String optionalString(String field)
  {
    return has(field) ? string(field, null) : null;
  }

  double number(String field, Double fallback, double min, double max)
  {
    return number(field, fallback, Interval.closed(min, max));
  }

  /** An operator knob of the extension: its default when absent, and its range. */
  double number(String field, Knob<Double> knob)
  {
    return number(field, knob.defaultValue(), knob.interval());
  }

  private double number(String field, Double fallback, Interval range)
  {
    if (!has(field)) {
      if (fallback == null) {
        throw new ScenarioException("missing field '" + path(field) + "'");
      }
      return fallback;
    }
    final JsonNode v = node.get(field);
    if (!v.isNumber()) {
      throw mustBe(field, "a number", v);
    }
    final double d = v.asDouble();
    if (!range.contains(d)) {
      throw mustBe(field, range.toString(), v);
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
      throw mustBe(field, "true or false", v);
    }
    return v.asBoolean();
  }

  long integer(String field, Long fallback, long min, long max)
  {
    if (!has(field)) {
      if (fallback == null) {
        throw new ScenarioException("missing field '" + path(field) + "'");
      }
      return fallback;
    }
    final long l = integral(field);
    if (l < min || l > max) {
      throw mustBe(field, "in [" + min + ", " + max + "]", node.get(field));
    }
    return l;
  }

  /** An operator knob of the extension: its default when absent, its range, and at most {@code max}. */
  int integer(String field, Knob<Integer> knob, int max)
  {
    if (!has(field)) {
      return knob.defaultValue();
    }
    final long l = integral(field);
    if (l > max || !knob.interval().contains(l)) {
      throw mustBe(field, knob.requirement() + (max == Integer.MAX_VALUE ? "" : " and <= " + max), node.get(field));
    }
    return (int) l;
  }

  private long integral(String field)
  {
    final JsonNode v = node.get(field);
    if (!v.isIntegralNumber() && !(v.isNumber() && v.asDouble() == Math.rint(v.asDouble()))) {
      throw mustBe(field, "an integer", v);
    }
    return v.asLong();
  }

  private ScenarioException mustBe(String field, String requirement, JsonNode got)
  {
    return new ScenarioException(Knob.mustBe("field '" + path(field) + "'", requirement, got));
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
      throw mustBe(field, "an array", v);
    }
    return v;
  }

  JsonFields object(String field)
  {
    return has(field) ? new JsonFields(node.get(field), path(field)) : null;
  }
}
