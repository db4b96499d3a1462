package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.localcluster.client.BrokerClient;
import org.getafix.localcluster.client.DruidHttp;
import org.getafix.localcluster.client.NativeQuery;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Druid cluster the bench did not start, given by its Broker's URL: the experiments that need no cluster of their
 * own ({@code budgeted} and {@code hedged}) run their queries there, over one of its datasources. The bench cannot
 * throttle a Historical into a straggler there (no cgroups), place replicas or restart the Broker, so they measure the
 * cluster as it is: its own slow nodes, its replication, its Broker's settings.
 *
 * @param broker     the Broker's URL, e.g. {@code http://broker:8082}; its quality monitor must be installed
 * @param dataSource the datasource the query reads
 * @param targetMs   the response-time target T; null: 4x the cluster's own answer, as on the bench's clusters
 */
record ExistingCluster(URI broker, String dataSource, Long targetMs)
{
  /** The cardinality aggregator's name in {@link #query}. */
  private static final String DISTINCT = "distinctRows";

  ExistingCluster
  {
    final String scheme = broker.getScheme();
    if (!("http".equals(scheme) || "https".equals(scheme)) || broker.getHost() == null) {
      throw new IllegalArgumentException("--broker must be an http(s) URL such as http://broker:8082, got " + broker);
    }
    if (dataSource.isBlank()) {
      throw new IllegalArgumentException("--datasource must name a datasource");
    }
    if (targetMs != null && targetMs <= 0) {
      throw new IllegalArgumentException("--target-ms must be positive, got " + targetMs);
    }
  }

  /**
   * The experiments' query over the datasource, as the bench's own ({@code BudgetExperiment.stragglerQuery}): an hourly
   * timeseries over all of its time with a count and a cardinality aggregator over every dimension, which hashes every
   * row, so that each segment costs its Historical in proportion to its rows.
   *
   * @throws IllegalStateException if the Broker knows no such datasource, or it has no data
   */
  Map<String, Object> query(DruidHttp http)
  {
    final JsonNode boundary;
    try {
      boundary = new BrokerClient(broker, http).nativeQuery(Map.of("queryType", "timeBoundary", "dataSource", dataSource));
    }
    catch (DruidHttp.DruidHttpException e) {
      throw new IllegalStateException("the Broker at " + broker + " cannot query datasource " + dataSource + ": HTTP "
                                      + e.status() + " " + e.body(), e);
    }
    final JsonNode result = boundary.path(0).path("result");
    if (!result.path("minTime").isTextual() || !result.path("maxTime").isTextual()) {
      throw new IllegalStateException("datasource " + dataSource + " has no data the Broker can query: " + boundary);
    }
    // maxTime is the last row's timestamp: the interval ends just after it.
    final String interval =
        result.path("minTime").asText() + "/" + Instant.parse(result.path("maxTime").asText()).plusMillis(1);
    // The Broker lists the dimensions of the last week only unless asked for an interval.
    final JsonNode schema = http.get(broker.resolve(
        "/druid/v2/datasources/" + URLEncoder.encode(dataSource, StandardCharsets.UTF_8).replace("+", "%20")
        + "?interval=" + interval
    ));
    final List<String> dimensions = new ArrayList<>();
    schema.path("dimensions").forEach(dimension -> dimensions.add(dimension.asText()));
    final NativeQuery query = NativeQuery.timeseries(dataSource, List.of(interval)).granularity("hour").count("rows");
    return (dimensions.isEmpty() ? query : query.cardinality(DISTINCT, dimensions, true)).toMap();
  }
}
