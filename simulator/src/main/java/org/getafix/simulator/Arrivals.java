package org.getafix.simulator;

import org.getafix.simulator.cluster.Cluster;
import org.getafix.simulator.cluster.Query;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.execution.ExecutionControl;
import org.getafix.simulator.settings.ScenarioSettings;
import org.getafix.simulator.workload.Client;
import org.getafix.simulator.workload.QueryType;
import org.getafix.simulator.workload.WorkloadGenerator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What comes into the cluster: the segments present at the start, a handoff every {@code arrivalEverySeconds},
 * and each client's queries, fanned out into one task per segment of the interval the workload generator draws.
 */
final class Arrivals
{
  private final ScenarioSettings scenario;
  private final ScenarioSettings.Run run;
  private final ExecutionControl execution;
  private final EventLoop loop;
  private final Cluster cluster;
  private final WorkloadGenerator workload;
  private final SplittableRandom segmentRandom;
  private final List<Client> clients = new ArrayList<>();
  private int nextSegment;
  private long tasks;

  /**
   * @param run           its load factor and load step scale every client's rate
   * @param execution     the gate each query passes (budgeted execution, admission); null for none
   * @param clientRandom  split once per client, in client order: each client's own stream
   * @param segmentRandom segment sizes
   */
  Arrivals(
      ScenarioSettings scenario,
      ScenarioSettings.Run run,
      ExecutionControl execution,
      EventLoop loop,
      Cluster cluster,
      WorkloadGenerator workload,
      SplittableRandom clientRandom,
      SplittableRandom segmentRandom
  )
  {
    this.scenario = scenario;
    this.run = run;
    this.execution = execution;
    this.loop = loop;
    this.cluster = cluster;
    this.workload = workload;
    this.segmentRandom = segmentRandom;
    final List<QueryType> types = scenario.workload().queryTypes().stream()
                                          .map(t -> new QueryType(t.name(), t.weight(), t.meanTaskMillis(), t.cv()))
                                          .toList();
    for (int i = 0; i < scenario.clients().count(); i++) {
      clients.add(new Client(
          i,
          scenario.clients().minQueriesPerSecond(),
          scenario.clients().maxQueriesPerSecond(),
          types,
          clientRandom.split()
      ));
    }
  }

  /** History before the run: one replica each, spread evenly, as a cluster that has been loading for a while. */
  void createInitialSegments()
  {
    final int nodes = cluster.nodes().length;
    for (int i = 0; i < scenario.segments().initial(); i++) {
      cluster.addLoadedSegment(nextSegmentId(), drawSize(), i % nodes);
    }
  }

  /** Schedules each client's first query, then every handoff of the run. */
  void schedule()
  {
    for (Client client : clients) {
      loop.schedule(client.nextInterArrival(rateFactorAt(0)), () -> arrive(client));
    }
    final double every = scenario.segments().arrivalEverySeconds();
    if (every > 0) {
      for (double t = every; t < scenario.durationSeconds(); t += every) {
        loop.schedule(t, this::segmentArrives);
      }
    }
  }

  /** The clients' rate multiplier at {@code now}: the run's load factor, on the scenario's day if it has one. */
  private double rateFactorAt(double now)
  {
    final double factor = run.loadFactorAt(now);
    return scenario.diurnal() == null ? factor : factor * scenario.diurnal().factorAt(now);
  }

  /** Per-segment tasks dispatched so far. */
  long tasks()
  {
    return tasks;
  }

  private String nextSegmentId()
  {
    return String.format(Locale.ROOT, "seg-%05d", nextSegment++);
  }

  private long drawSize()
  {
    final ScenarioSettings.Segments s = scenario.segments();
    return Math.max(1, Math.round(s.sizeBytes() * (1 + s.sizeJitter() * (2 * segmentRandom.nextDouble() - 1))));
  }

  private void segmentArrives()
  {
    cluster.addArrivingSegment(nextSegmentId(), drawSize());
  }

  private void arrive(Client client)
  {
    final double now = loop.now();
    final QueryType type = client.nextType();
    final double work = type.drawTaskSeconds(client.random());
    final WorkloadGenerator.Interval interval = workload.next(client.random(), cluster.queryableCount());
    final Query query = new Query(client.index(), type, now);
    // A rejected query still drew its type, cost and interval: every run sees the same query stream.
    if (execution == null || execution.admit(query)) {
      final int length = interval.length();
      final int segments = execution == null ? length : execution.segmentsToQuery(query, length);
      // A budget that pays for part of the interval samples it evenly, the middle segment of each of `segments`
      // equal strata: the newest segments alone would pile the cut queries onto the few nodes that serve them.
      for (int i = 0; i < segments; i++) {
        final int age = interval.newestAge() + (int) ((2L * i + 1) * length / (2L * segments));
        cluster.dispatch(query, cluster.queryableByAge(age), work, client.index());
        tasks++;
      }
      if (execution != null) {
        execution.dispatched(query);
      }
    }
    final double next = now + client.nextInterArrival(rateFactorAt(now));
    if (next < scenario.durationSeconds()) {
      loop.schedule(next, () -> arrive(client));
    }
  }
}
