package org.getafix.simulator.whatif;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterInventoryTest
{
  /** The shape of the Coordinator's servers?full answer, trimmed to the fields read. */
  static final String SERVERS = """
      [
        {"host": "h1:8083", "type": "historical", "tier": "_default_tier", "maxSize": 1000,
         "segments": {
           "wiki_2025-01-01T00_1": {"dataSource": "wiki", "interval": "2025-01-01T00:00:00.000Z/2025-01-01T01:00:00.000Z",
                                    "shardSpec": {"type": "numbered", "partitionNum": 0}, "size": 100},
           "wiki_2025-01-01T01_1": {"dataSource": "wiki", "interval": "2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z",
                                    "shardSpec": {"type": "numbered", "partitionNum": 0}, "size": 300}}},
        {"host": "h2:8083", "type": "historical", "tier": "_default_tier", "maxSize": 2000,
         "segments": {
           "wiki_2025-01-01T01_1": {"dataSource": "wiki", "interval": "2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z",
                                    "shardSpec": {"type": "numbered", "partitionNum": 0}, "size": 300},
           "other_2025-01-01T05_1": {"dataSource": "other", "interval": "2025-01-01T05:00:00.000Z/2025-01-01T06:00:00.000Z",
                                     "size": 50}}},
        {"host": "peon:8100", "type": "indexer-executor", "segments": {}}
      ]
      """;

  @Test
  void readsTheHistoricalsAndTheirSegmentsNewestFirstWithReplicaCounts() throws Exception
  {
    final ClusterInventory inventory = ClusterInventory.of(new ObjectMapper().readTree(SERVERS), "wiki");
    assertEquals(
        List.of(new ClusterInventory.Historical("h1:8083", "_default_tier", 1000),
                new ClusterInventory.Historical("h2:8083", "_default_tier", 2000)),
        inventory.historicals(),
        "the peon holds no data to plan"
    );
    final long hour0 = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
    final long hour = 3_600_000;
    assertEquals(
        List.of(new ClusterInventory.ServedSegment("wiki", hour0 + hour, hour0 + 2 * hour, 0, 300, 2),
                new ClusterInventory.ServedSegment("wiki", hour0, hour0 + hour, 0, 100, 1)),
        inventory.segments()
    );
    assertEquals(1.5, inventory.meanReplicas());
    assertEquals(200, inventory.meanSizeBytes());
    assertEquals(3, ClusterInventory.of(new ObjectMapper().readTree(SERVERS), null).segments().size());
  }

  @Test
  void anEmptyOrUnexpectedAnswerIsAClearError() throws Exception
  {
    final ObjectMapper mapper = new ObjectMapper();
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ClusterInventory.of(mapper.readTree("{}"), null))
                   .getMessage().contains("not a JSON array"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ClusterInventory.of(mapper.readTree("[]"), null))
                   .getMessage().contains("no Historical"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ClusterInventory.of(mapper.readTree(SERVERS), "nope"))
                   .getMessage().contains("[nope]"));
  }
}
