package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.query.context.ResponseContext;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.QueryContextKeys;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CoverageKeyTest
{
  private static final ObjectMapper MAPPER = new DefaultObjectMapper().registerModule(new QualityJsonModule());
  private static final String HOUR_1 = "2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z";

  @Test
  void theResponseContextCarriesItThroughTheHeaderAndBack() throws Exception
  {
    CoverageKey.register();
    final ResponseContext context = ResponseContext.createEmpty();
    CoverageKey.add(context, Coverage.answered(2));
    CoverageKey.add(context, Coverage.late(List.of(HOUR_1)));
    final String header = context.serializeWith(MAPPER, 7 * 1024).getResult();
    final Map<?, ?> json = MAPPER.readValue(header, Map.class);
    final Map<?, ?> coverage = (Map<?, ?>) json.get(QueryContextKeys.COVERAGE);
    assertEquals(3, coverage.get("total"));
    assertEquals(2, coverage.get("answered"));
    assertEquals(1, coverage.get("late"));
    assertEquals(true, coverage.get("timedOut"));
    assertEquals(false, coverage.get("missingIntervalsTruncated"));
    assertEquals(List.of(HOUR_1), coverage.get("missingIntervals"));
    assertEquals(CoverageKey.of(context), CoverageKey.of(ResponseContext.deserialize(header, MAPPER)));
  }
}
