package org.getafix.broker.routing;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.getafix.core.contract.OwnedProperties;
import org.getafix.core.routing.NodeFeedback;
import org.getafix.core.wire.HistoricalStatsReport;
import org.joda.time.Period;

/**
 * {@code druid.getafix.routing.*}: how the Broker gathers what the routing policies need. The policy itself and
 * its own knobs are chosen with {@code druid.broker.balancer.*}, like Druid's built-in strategies. Field-annotated,
 * as Druid's {@code JsonConfigurator} requires.
 */
public class BrokerRoutingConfig
{
  public static final String PREFIX = OwnedProperties.ROUTING;

  /** How often the routing table and the Historicals' queue reports are refreshed and metrics emitted. */
  @JsonProperty
  private Period period = Period.seconds(5);

  @JsonProperty
  private Period statsTimeout = Period.seconds(2);

  @JsonProperty
  private String statsPath = HistoricalStatsReport.PATH;

  /** Broker metric whose values, per {@code server} dimension, feed the latency EWMA. */
  @JsonProperty
  private String latencyMetric = "query/node/time";

  @JsonProperty
  private double latencyAlpha = NodeFeedback.DEFAULT_ALPHA;

  @JsonProperty
  private Period forgetNodesAfter = Period.minutes(10);

  public static BrokerRoutingConfig defaults()
  {
    return new BrokerRoutingConfig();
  }

  public Period getPeriod()
  {
    return period;
  }

  public Period getStatsTimeout()
  {
    return statsTimeout;
  }

  public String getStatsPath()
  {
    return statsPath;
  }

  public String getLatencyMetric()
  {
    return latencyMetric;
  }

  public double getLatencyAlpha()
  {
    return latencyAlpha;
  }

  public Period getForgetNodesAfter()
  {
    return forgetNodesAfter;
  }

  /** Fails on the first bad property, naming it and its value. */
  public BrokerRoutingConfig validate()
  {
    Periods.positive(PREFIX + ".period", period, null);
    Periods.positive(PREFIX + ".statsTimeout", statsTimeout, null);
    Periods.positive(PREFIX + ".forgetNodesAfter", forgetNodesAfter, null);
    if (!(latencyAlpha > 0 && latencyAlpha <= 1)) {
      throw new IllegalArgumentException(PREFIX + ".latencyAlpha must be in (0, 1], got [" + latencyAlpha + "]");
    }
    if (statsPath == null || !statsPath.startsWith("/")) {
      throw new IllegalArgumentException(PREFIX + ".statsPath must be an absolute path, got [" + statsPath + "]");
    }
    if (latencyMetric == null || latencyMetric.isBlank()) {
      throw new IllegalArgumentException(PREFIX + ".latencyMetric must be a metric name, got [" + latencyMetric + "]");
    }
    return this;
  }
}
