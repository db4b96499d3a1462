package org.getafix.localcluster.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * The Broker's query API: native queries ({@code POST /druid/v2}) and SQL ({@code POST /druid/v2/sql}).
 */
public final class BrokerClient
{
  private final URI base;
  private final DruidHttp http;

  public BrokerClient(URI base, DruidHttp http)
  {
    this.base = base;
    this.http = http;
  }

  public URI uri()
  {
    return base;
  }

  /**
   * Runs a native query (a Map, JSON tree or JSON string) and returns Druid's JSON result.
   */
  public JsonNode nativeQuery(Object query)
  {
    return http.postJson(base.resolve("/druid/v2/"), query);
  }

  public JsonNode nativeQuery(Object query, Duration timeout)
  {
    return http.postJson(base.resolve("/druid/v2/"), query, timeout);
  }

  /**
   * Runs a SQL query; the result is an array of row objects.
   */
  public JsonNode sql(String sql)
  {
    return http.postJson(base.resolve("/druid/v2/sql/"), Map.of("query", sql, "resultFormat", "object"));
  }

  /**
   * Whether the Broker has synced its view of the cluster ({@code GET /druid/broker/v1/loadstatus}).
   */
  public boolean isInitialized()
  {
    return http.get(base.resolve("/druid/broker/v1/loadstatus")).path("inventoryInitialized").asBoolean(false);
  }
}
