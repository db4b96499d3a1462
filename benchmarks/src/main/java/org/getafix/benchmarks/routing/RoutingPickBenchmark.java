package org.getafix.benchmarks.routing;

import com.fasterxml.jackson.databind.InjectableValues;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.client.DirectDruidClient;
import org.apache.druid.client.DruidServer;
import org.apache.druid.client.QueryableDruidServer;
import org.apache.druid.client.selector.ServerSelectorStrategy;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.server.coordination.ServerType;
import org.apache.druid.timeline.DataSegment;
import org.apache.druid.timeline.partition.NumberedShardSpec;
import org.getafix.broker.routing.BrokerRoutingConfig;
import org.getafix.broker.routing.BrokerRoutingState;
import org.getafix.broker.routing.GetafixRoutingModule;
import org.getafix.core.routing.RoutingTable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One Broker replica choice, per policy, against Druid 33.0.0's {@code connectionCount} over the same holders.
 * Every strategy is called the way Druid's tier strategies call it for each segment of each query:
 * {@code pick(query, servers, segment, 1)} on the {@code HashSet} a {@code ServerSelector} keeps. Holders have
 * open-connection counts 0..3 (so ties happen), every getafix input is present and fresh (table rows over all
 * holders, latency and queue for every node), and picks rotate over {@value #SEGMENTS} segments.
 * <p>
 * Goal: each getafix policy at most 1.5× the time of {@code connectionCount}, with
 * 0 B/op allocated ({@code -prof gc}, {@code gc.alloc.rate.norm}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RoutingPickBenchmark
{
  static final int SEGMENTS = 64;
  private static final long HOUR_MILLIS = TimeUnit.HOURS.toMillis(1);

  @Param({"3", "10", "50"})
  public int holders;

  @Param({"connectionCount", "getafixLbr", "getafixLbrMl", "getafixAdaptive", "getafixAbr"})
  public String strategy;

  private ServerSelectorStrategy selector;
  private Set<QueryableDruidServer> servers;
  private DataSegment[] segments;
  private int next;

  @Setup(Level.Trial)
  public void setUp()
  {
    final Random random = new Random(17);
    servers = new HashSet<>();
    final String[] names = new String[holders];
    for (int i = 0; i < holders; i++) {
      names[i] = "historical-" + i + ".example.com:8083";
      servers.add(new QueryableDruidServer(
          new DruidServer(names[i], names[i], null, 1L << 40, ServerType.HISTORICAL, "_default_tier", 0),
          new FixedConnectionsClient(names[i], random.nextInt(4))
      ));
    }
    segments = new DataSegment[SEGMENTS];
    final Map<String, Map<String, Double>> shares = new HashMap<>();
    for (int s = 0; s < SEGMENTS; s++) {
      segments[s] = DataSegment.builder()
                               .dataSource("wikipedia")
                               .interval(Intervals.utc(HOUR_MILLIS * (490_000 + s), HOUR_MILLIS * (490_001 + s)))
                               .version("2026-01-02T00:00:00.000Z")
                               .shardSpec(new NumberedShardSpec(0, 1))
                               .size(500_000_000L)
                               .build();
      final Map<String, Double> row = new HashMap<>();
      for (String name : names) {
        row.put(name, random.nextDouble());
      }
      shares.put(segments[s].getId().toString(), row);
    }

    final BrokerRoutingState state = new BrokerRoutingState(BrokerRoutingConfig.defaults());
    final long now = System.nanoTime();
    state.tables().install(RoutingTable.of(1, 0, shares), now);
    for (String name : names) {
      state.feedback().recordLatency(name, 5 + random.nextInt(50), now);
      state.feedback().reportQueue(name, random.nextInt(3), now);
    }
    // Built as a Broker builds it, from druid.broker.balancer.* properties, with periods long enough that the table
    // and the statistics stay fresh for the whole trial. Druid's own connectionCount comes through the same path.
    final ObjectMapper mapper = new DefaultObjectMapper();
    new GetafixRoutingModule().getJacksonModules().forEach(mapper::registerModule);
    mapper.setInjectableValues(new InjectableValues.Std().addValue(BrokerRoutingState.class, state));
    selector = mapper.convertValue(
        Map.of(
            "type", strategy,
            "maxTableAge", "PT1H",
            "maxQueueAge", "PT1H",
            "statsFresh", "PT1H",
            "statsDecay", "PT1H"
        ),
        ServerSelectorStrategy.class
    );
  }

  @Benchmark
  public List<QueryableDruidServer> pick()
  {
    final DataSegment segment = segments[next++ & (SEGMENTS - 1)];
    return selector.pick(null, servers, segment, 1);
  }

  /** A real Druid client whose open-connection count is fixed, since that count is all selectors read. */
  static final class FixedConnectionsClient extends DirectDruidClient<Object>
  {
    private final int openConnections;

    FixedConnectionsClient(String host, int openConnections)
    {
      super(null, null, new DefaultObjectMapper(), null, "http", host, null, null);
      this.openConnections = openConnections;
    }

    @Override
    public int getNumOpenConnections()
    {
      return openConnections;
    }
  }
}
