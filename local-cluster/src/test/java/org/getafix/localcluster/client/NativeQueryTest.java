package org.getafix.localcluster.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

class NativeQueryTest
{
  private static final ObjectMapper MAPPER =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
  private static final List<String> INTERVALS = List.of("2025-01-01T00:00:00Z/2025-01-01T03:00:00Z");

  @Test
  void timeseries() throws JsonProcessingException
  {
    final NativeQuery query = NativeQuery.timeseries("ds", INTERVALS)
                                         .granularity("hour")
                                         .count("rows")
                                         .longSum("added", "added")
                                         .doubleSum("delta", "delta")
                                         .cardinality("users", List.of("user", "page"), true)
                                         .context("useCache", false)
                                         .context("timeout", 120_000);
    assertEquals(
        "{\"aggregations\":[{\"name\":\"rows\",\"type\":\"count\"},"
        + "{\"fieldName\":\"added\",\"name\":\"added\",\"type\":\"longSum\"},"
        + "{\"fieldName\":\"delta\",\"name\":\"delta\",\"type\":\"doubleSum\"},"
        + "{\"byRow\":true,\"fields\":[\"user\",\"page\"],\"name\":\"users\",\"type\":\"cardinality\"}],"
        + "\"context\":{\"timeout\":120000,\"useCache\":false},"
        + "\"dataSource\":\"ds\",\"granularity\":\"hour\","
        + "\"intervals\":[\"2025-01-01T00:00:00Z/2025-01-01T03:00:00Z\"],\"queryType\":\"timeseries\"}",
        json(query)
    );
  }

  @Test
  void topN() throws JsonProcessingException
  {
    final NativeQuery query = NativeQuery.topN("ds", INTERVALS)
                                         .granularity("all")
                                         .dimension("page")
                                         .metric("added")
                                         .threshold(10)
                                         .selectorFilter("country", "c1")
                                         .longSum("added", "added");
    assertEquals(
        "{\"aggregations\":[{\"fieldName\":\"added\",\"name\":\"added\",\"type\":\"longSum\"}],"
        + "\"dataSource\":\"ds\",\"dimension\":\"page\","
        + "\"filter\":{\"dimension\":\"country\",\"type\":\"selector\",\"value\":\"c1\"},\"granularity\":\"all\","
        + "\"intervals\":[\"2025-01-01T00:00:00Z/2025-01-01T03:00:00Z\"],\"metric\":\"added\","
        + "\"queryType\":\"topN\",\"threshold\":10}",
        json(query)
    );
  }

  @Test
  void groupBy() throws JsonProcessingException
  {
    final NativeQuery query = NativeQuery.groupBy("ds", INTERVALS)
                                         .granularity("all")
                                         .dimensions("country", "page")
                                         .count("rows")
                                         .limitDescendingNumeric(20, "rows");
    assertEquals(
        "{\"aggregations\":[{\"name\":\"rows\",\"type\":\"count\"}],\"dataSource\":\"ds\","
        + "\"dimensions\":[\"country\",\"page\"],\"granularity\":\"all\","
        + "\"intervals\":[\"2025-01-01T00:00:00Z/2025-01-01T03:00:00Z\"],"
        + "\"limitSpec\":{\"columns\":[{\"dimension\":\"rows\",\"dimensionOrder\":\"numeric\","
        + "\"direction\":\"descending\"}],"
        + "\"limit\":20,\"type\":\"default\"},\"queryType\":\"groupBy\"}",
        json(query)
    );
  }

  @Test
  void scanHasNoAggregationsGranularityOrContextUnlessSet() throws JsonProcessingException
  {
    final NativeQuery query = NativeQuery.scan("ds", INTERVALS)
                                         .columns("__time", "page")
                                         .expressionFilter("added < 100")
                                         .resultFormat("compactedList");
    assertEquals(
        "{\"columns\":[\"__time\",\"page\"],\"dataSource\":\"ds\","
        + "\"filter\":{\"expression\":\"added < 100\",\"type\":\"expression\"},"
        + "\"intervals\":[\"2025-01-01T00:00:00Z/2025-01-01T03:00:00Z\"],"
        + "\"queryType\":\"scan\",\"resultFormat\":\"compactedList\"}",
        json(query)
    );
  }

  @Test
  void eachMapIsFreshAndMutable()
  {
    final NativeQuery query = NativeQuery.timeseries("ds", INTERVALS).context("useCache", false);
    final Map<String, Object> first = query.toMap();
    first.put("context", Map.of("queryId", "q1"));
    assertNotSame(first, query.toMap());
    assertEquals(Map.of("useCache", false), query.toMap().get("context"));
  }

  private static String json(NativeQuery query) throws JsonProcessingException
  {
    return MAPPER.writeValueAsString(query.toMap());
  }
}
