package org.getafix.it.quality;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * One entry of the Broker's quality endpoint's {@code recent} list: a sampled budgeted query whose mature run
 * finished.
 *
 * @param queryId   the query's id
 * @param coverage  the online answer's coverage, null if the entry has none
 * @param quality   measured quality of the online answer against the mature one, in [0, 1]; NaN when the mature
 *                  run measured none (it failed)
 */
public record MatureRun(String queryId, Coverage coverage, double quality)
{
  /** The entries of {@code GET /druid/broker/v1/getafix/quality}'s {@code recent} list, newest first. */
  public static List<MatureRun> recent(JsonNode qualityState)
  {
    final List<MatureRun> runs = new ArrayList<>();
    for (JsonNode entry : qualityState.path("recent")) {
      final String id = entry.path("queryId").asText(null);
      if (id == null) {
        continue;
      }
      final JsonNode quality = entry.path("quality").path("quality");
      runs.add(new MatureRun(id, Coverage.of(entry.path("coverage")), quality.isNumber() ? quality.asDouble() : Double.NaN));
    }
    return runs;
  }
}
