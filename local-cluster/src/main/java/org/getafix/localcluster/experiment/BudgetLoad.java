package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.core.wire.Coverage;
import org.getafix.localcluster.client.BrokerAnswer;
import org.getafix.localcluster.client.BrokerFormats;
import org.getafix.localcluster.client.QualityClient;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.Waits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Concurrent clients against the Broker, recording every outcome in completion order and, when given a probe, what
 * it reads from the quality endpoint every {@code snapshotEvery} completed queries (by one thread of its own, so that
 * no client waits for it). Closed-loop clients send their next query when the last is answered; open-loop arrivals
 * come at a fixed period or at times drawn in advance, whatever the answers, so that a shed query does not make its
 * client send faster. The Broker is resolved per query: the experiments restart it between runs. The load of
 * {@link BudgetExperiment}.
 */
public final class BudgetLoad
{
  /**
   * A query to send, whether it is high-priority, and how to measure the quality of its answer.
   *
   * @param quality the quality of an answered query's body, in [0, 1]; null when the coverage tells it
   */
  public record Request(Map<String, Object> body, boolean highPriority, ToDoubleFunction<JsonNode> quality)
  {
    public Request(Map<String, Object> body, boolean highPriority)
    {
      this(body, highPriority, null);
    }
  }

  /**
   * One answered (or failed) query.
   *
   * @param index          its place in completion order, from 1
   * @param highPriority   whether it was sent as high-priority
   * @param status         HTTP status, or -1 when the request itself failed
   * @param millis         response time as the client saw it
   * @param answeredShare  its coverage's answered share of segments, NaN without coverage
   * @param endMillis      completion time from the start of the run
   * @param quality        its answer's quality as its request measured it; NaN when not measured (no measure, or
   *                       not answered)
   */
  public record Outcome(
      int index,
      boolean highPriority,
      int status,
      long millis,
      double answeredShare,
      long endMillis,
      double quality
  )
  {
  }

  /** The probe's values read after the {@code index}-th completed query, {@code atMillis} into the run. */
  public record Snapshot(int index, long atMillis, double[] values)
  {
  }

  private final LocalDruidCluster cluster;
  private final int snapshotEvery;
  /** Null when nothing is read from the quality endpoint. */
  private final Function<JsonNode, double[]> probe;
  private final long startNanos = System.nanoTime();
  private final AtomicLong issued = new AtomicLong();
  private final AtomicInteger completed = new AtomicInteger();
  private final AtomicInteger highPriorityCompleted = new AtomicInteger();
  private final List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
  private final List<Snapshot> snapshots = Collections.synchronizedList(new ArrayList<>());
  private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
  private final ExecutorService workers = Executors.newCachedThreadPool();
  private final ExecutorService sampler = Executors.newSingleThreadExecutor();
  private final ScheduledExecutorService arrivals = Executors.newSingleThreadScheduledExecutor();
  private volatile boolean stopping;
  private volatile long stoppedMillis = -1;

  /**
   * A load that has not started sending yet.
   *
   * @param probe what to read from the quality endpoint's state every {@code snapshotEvery} completed queries; null
   *              for nothing
   */
  public BudgetLoad(LocalDruidCluster cluster, int snapshotEvery, Function<JsonNode, double[]> probe)
  {
    this.cluster = cluster;
    this.snapshotEvery = snapshotEvery;
    this.probe = probe;
  }

  /** Starts {@code clients} clients that each send {@code next}'s query for the next number once the last is answered. */
  public void closedLoop(int clients, LongFunction<Request> next)
  {
    for (int c = 0; c < clients; c++) {
      workers.execute(() -> {
        while (!stopping) {
          send(next.apply(issued.getAndIncrement()));
        }
      });
    }
  }

  /** Starts sending {@code next}'s query for the next number every {@code period}, answered or not. */
  public void openLoop(Duration period, LongFunction<Request> next)
  {
    arrivals.scheduleAtFixedRate(
        () -> {
          if (!stopping) {
            final Request request = next.apply(issued.getAndIncrement());
            workers.execute(() -> send(request));
          }
        },
        0,
        period.toMillis(),
        TimeUnit.MILLISECONDS
    );
  }

  /**
   * Sends {@code next}'s query for the next number at each of {@code atMillis} (from the start of this load, as
   * {@link Outcome#endMillis} counts), answered or not: arrivals drawn in advance, such as an
   * {@link ArrivalSchedule}'s.
   */
  public void scheduled(List<Double> atMillis, LongFunction<Request> next)
  {
    final long startedMillis = millisSinceStart();
    for (double at : atMillis) {
      arrivals.schedule(
          () -> {
            if (!stopping) {
              final Request request = next.apply(issued.getAndIncrement());
              workers.execute(() -> send(request));
            }
          },
          Math.max(0, Math.round(at) - startedMillis),
          TimeUnit.MILLISECONDS
      );
    }
  }

  private void send(Request request)
  {
    BrokerAnswer answer = null;
    final long t0 = System.nanoTime();
    try {
      answer = new QualityClient(cluster.broker().uri()).nativeQuery(request.body());
    }
    catch (Exception e) {
      errors.add(e.toString());
    }
    final Coverage coverage = answer == null ? null : BrokerFormats.coverage(answer.context());
    final int index = completed.incrementAndGet();
    if (request.highPriority()) {
      highPriorityCompleted.incrementAndGet();
    }
    outcomes.add(new Outcome(
        index,
        request.highPriority(),
        answer == null ? -1 : answer.status(),
        answer == null ? TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) : answer.millis(),
        coverage == null ? Double.NaN : coverage.fraction(),
        millisSinceStart(),
        request.quality() == null || answer == null || answer.status() != 200
        ? Double.NaN
        : request.quality().applyAsDouble(answer.body())
    ));
    if (probe != null && index % snapshotEvery == 0) {
      sampler.execute(() -> snapshot(index));
    }
  }

  private void snapshot(int index)
  {
    try {
      snapshots.add(new Snapshot(index, millisSinceStart(), probe.apply(qualityState())));
    }
    catch (RuntimeException e) {
      errors.add("snapshot " + index + ": " + e);
    }
  }

  /** The quality endpoint's state on the Broker now. */
  public JsonNode qualityState()
  {
    return new QualityClient(cluster.broker().uri()).qualityState();
  }

  private long millisSinceStart()
  {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  public int completed()
  {
    return completed.get();
  }

  /** Waits until {@code count} queries have completed or {@code max} has passed, whichever is first. */
  public void awaitCompleted(String what, int count, Duration max) throws TimeoutException
  {
    awaitCount(what, completed, count, max);
  }

  /** Waits until {@code count} high-priority queries have completed or {@code max} has passed, whichever is first. */
  public void awaitHighPriority(String what, int count, Duration max) throws TimeoutException
  {
    awaitCount(what, highPriorityCompleted, count, max);
  }

  private static void awaitCount(String what, AtomicInteger counter, int count, Duration max) throws TimeoutException
  {
    final long end = System.nanoTime() + max.toNanos();
    Waits.await(what, max.plusMinutes(1), Duration.ofMillis(200),
                () -> counter.get() >= count || System.nanoTime() - end >= 0, () -> ": " + counter.get());
  }

  /** Stops sending, and waits for the queries in flight (each bounded by its budget) and the last snapshots. */
  public void stop() throws InterruptedException
  {
    stopping = true;
    stoppedMillis = millisSinceStart();
    arrivals.shutdownNow();
    arrivals.awaitTermination(1, TimeUnit.MINUTES);
    workers.shutdown();
    final boolean clientsDone = workers.awaitTermination(2, TimeUnit.MINUTES);
    // Only once no client can ask for another snapshot.
    sampler.shutdown();
    final boolean samplerDone = sampler.awaitTermination(1, TimeUnit.MINUTES);
    if (!clientsDone || !samplerDone) {
      workers.shutdownNow();
      sampler.shutdownNow();
      throw new IllegalStateException("clients or the sampler still running minutes after the run stopped");
    }
  }

  /** From the start to {@link #stop}; -1 before it. */
  public long durationMillis()
  {
    return stoppedMillis;
  }

  /** The outcomes {@code which} keeps, in completion order. */
  public List<Outcome> outcomes(Predicate<Outcome> which)
  {
    synchronized (outcomes) {
      return outcomes.stream()
                     .filter(which)
                     .sorted(Comparator.comparingInt(Outcome::index))
                     .collect(Collectors.toList());
    }
  }

  public List<Snapshot> snapshots()
  {
    synchronized (snapshots) {
      return snapshots.stream().sorted(Comparator.comparingInt(Snapshot::index)).collect(Collectors.toList());
    }
  }

  /** Failed requests and probes, as text. */
  public List<String> errors()
  {
    synchronized (errors) {
      return new ArrayList<>(errors);
    }
  }
}
