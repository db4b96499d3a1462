package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PlainAggregateQualityTest
{
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNode WHOLE = json(
      "[{\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"result\":{\"meanAdded\":500.0,\"users\":40000.0}}]"
  );

  private static JsonNode json(String text)
  {
    try {
      return MAPPER.readTree(text);
    }
    catch (Exception e) {
      throw new IllegalArgumentException(text, e);
    }
  }

  @Test
  void theWholeAnswerHasQualityOne()
  {
    assertEquals(1, PlainAggregateQuality.of(WHOLE, WHOLE), 1e-12);
  }

  @Test
  void aPartialAnswerLosesTheMeanRelativeErrorOfItsValuesWhateverItsTimestamp()
  {
    // Lost the earliest hours: a later timestamp, the mean 1% off, the distinct users 20% short.
    final JsonNode partial = json(
        "[{\"timestamp\":\"2025-01-01T05:00:00.000Z\",\"result\":{\"meanAdded\":505.0,\"users\":32000}}]"
    );
    assertEquals(1 - (0.01 + 0.2) / 2, PlainAggregateQuality.of(partial, WHOLE), 1e-9);
  }

  @Test
  void noRowOrAnAggregateOverNoRowsIsWorthNothing()
  {
    assertEquals(0, PlainAggregateQuality.of(json("[]"), WHOLE), 1e-12, "a missing bucket is error 1 per metric");
    assertEquals(
        0,
        PlainAggregateQuality.of(json("[{\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"result\":"
                                      + "{\"meanAdded\":null,\"users\":0}}]"), WHOLE),
        1e-12,
        "no mean and no users: both values wrong"
    );
    assertEquals(0, PlainAggregateQuality.of(json("{\"error\":\"x\"}"), WHOLE), 1e-12, "not an answer");
  }

  @Test
  void anOverestimateIsAsWrongAsAnUnderestimate()
  {
    final JsonNode over = json("[{\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"result\":"
                               + "{\"meanAdded\":550.0,\"users\":40000}}]");
    assertEquals(1 - 0.1 / 2, PlainAggregateQuality.of(over, WHOLE), 1e-9);
  }
}
