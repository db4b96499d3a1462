package org.getafix.core.routing;

import org.getafix.core.registry.Registry;

import java.util.List;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * Every routing policy by its one name: the Broker's {@code druid.broker.balancer.type}, the simulator's
 * {@code routing}, the {@code policy} metric dimension and the docs all use these names verbatim. Adding a policy
 * means one entry here (name, traits, factory); the Broker registers its type and the simulator offers it from this
 * list. Names are prefixed {@code getafix} so that they cannot collide with Druid's own strategy types, except
 * {@value #RANDOM}, which is Druid's.
 */
public final class RoutingPolicies
{
  public static final String LBR = "getafixLbr";
  public static final String ABR = "getafixAbr";
  public static final String LBR_ML = "getafixLbrMl";
  public static final String ADAPTIVE = "getafixAdaptive";
  /** Druid's own {@code random} strategy, for comparisons. */
  public static final String RANDOM = "random";

  public static final Registry<Entry> REGISTRY = Registry.of(
      "routing policy",
      List.of(
          new Entry(LBR, new Traits(false, false, false, false), in -> new LeastConnectionsPolicy(in.random())),
          new Entry(
              ABR,
              new Traits(true, false, false, false),
              // The table draw, with LBR taking every pick the table cannot be trusted for (see FallbackReason).
              in -> AllocationBasedPolicy.withFallback(
                  in.tables(),
                  new LeastConnectionsPolicy(in.random()),
                  in.settings().maxTableAge().toNanos(),
                  in.nanoClock(),
                  in.random(),
                  in.counters()
              )
          ),
          new Entry(
              LBR_ML,
              new Traits(false, true, false, false),
              in -> new LeastLoadPolicy(
                  in.feedback(),
                  in.settings().maxQueueAge().toNanos(),
                  in.nanoClock(),
                  in.random()
              )
          ),
          new Entry(
              ADAPTIVE,
              new Traits(false, true, true, false),
              in -> new AdaptivePolicy(
                  in.feedback(),
                  in.settings().statsFresh().toNanos(),
                  in.settings().statsDecay().toNanos(),
                  in.nanoClock(),
                  in.random()
              )
          ),
          new Entry(RANDOM, new Traits(false, false, false, true), in -> new UniformRandomPolicy(in.random()))
      )
  );

  private RoutingPolicies()
  {
  }

  /**
   * What a policy needs from the router around it.
   *
   * @param routingTable  reads the Coordinator's routing table, which the router must keep fresh
   * @param queueReports  reads the Historicals' queue reports, which the router must poll
   * @param latencies     reads the router's own response-time EWMA
   * @param druidBuiltIn  Druid ships a strategy of this name; the Broker keeps Druid's and registers nothing
   */
  public record Traits(boolean routingTable, boolean queueReports, boolean latencies, boolean druidBuiltIn)
  {
    /** Whether the policy keeps per-router state ({@link NodeFeedback}), so each router needs its own instance. */
    public boolean perRouterState()
    {
      return queueReports || latencies;
    }
  }

  /** What a router hands a factory; a policy takes only what its traits say it reads. */
  public record Inputs(
      RoutingSettings settings,
      RoutingTableHolder tables,
      NodeFeedback feedback,
      RoutingCounters counters,
      LongSupplier nanoClock,
      RandomGenerator random
  )
  {
  }

  @FunctionalInterface
  public interface Factory
  {
    RoutingPolicy create(Inputs inputs);
  }

  public record Entry(String name, Traits traits, Factory factory) implements Registry.Entry
  {
    public RoutingPolicy create(Inputs inputs)
    {
      return factory.create(inputs);
    }
  }
}
