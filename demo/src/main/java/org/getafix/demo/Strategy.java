package org.getafix.demo;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The two configurations the demo compares on one cluster.
 *
 * <p>The router of druid-getafix is {@code getafixAdaptive}: on the live cluster with a straggler it had the lowest
 * p99 of all Broker strategies, a median 0.79 (0.65-1.04) of Druid's {@code connectionCount}, while
 * {@code getafixAbr} (the plan's table) was 1.18-2.16 times worse (docs/benchmarks.md, "Live cluster: Broker routing
 * with a straggler").
 */
public enum Strategy
{
  /** Druid as shipped: {@code cost} balancer, 2 replicas of every segment, {@code connectionCount} routing. */
  STOCK("stock", "stock Druid", "cost", "connectionCount"),
  /**
   * druid-getafix: Getafix-H placement (floor of 1 replica, up to 3), adaptive routing, and budgeted queries of which
   * the quality monitor samples some for a mature run.
   */
  GETAFIX("getafix", "druid-getafix", "getafix-h", "getafixAdaptive");

  private final String option;
  private final String label;
  private final String balancer;
  private final String router;

  Strategy(String option, String label, String balancer, String router)
  {
    this.option = option;
    this.label = label;
    this.balancer = balancer;
    this.router = router;
  }

  /** The name used by {@code --strategies}. */
  public String option()
  {
    return option;
  }

  /** The name in the report and in results.json. */
  public String label()
  {
    return label;
  }

  /** Placement strategy, as the simulator names it in results.json. */
  public String balancer()
  {
    return balancer;
  }

  /** {@code druid.broker.balancer.type} of the Broker. */
  public String router()
  {
    return router;
  }

  /**
   * The Broker's runtime properties of this configuration: its router, and, for stock Druid, no failover of the
   * quality monitor, which is installed on the one Broker both share.
   */
  public Map<String, String> brokerProperties()
  {
    return Map.of(
        "druid.broker.balancer.type", router,
        "druid.getafix.quality.failover", String.valueOf(this != STOCK)
    );
  }

  static Strategy named(String option)
  {
    return Arrays.stream(values())
                 .filter(s -> s.option.equals(option))
                 .findFirst()
                 .orElseThrow(() -> new IllegalArgumentException(
                     "unknown strategy " + option + "; choose from "
                     + Arrays.stream(values()).map(Strategy::option).collect(Collectors.joining(", "))
                 ));
  }
}
