package org.getafix.localcluster.workload;

import com.fasterxml.jackson.databind.JsonNode;
import org.HdrHistogram.ConcurrentHistogram;
import org.getafix.localcluster.client.BrokerClient;
import org.getafix.localcluster.client.BrokerAnswer;
import org.getafix.localcluster.client.BrokerFormats;
import org.getafix.localcluster.client.QualityClient;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends a {@link QueryMix} to the Broker from several closed-loop client threads (each sends its next query when the
 * previous answer arrives) until a duration elapses or a query count is reached, and records every outcome and the
 * latency distribution per query kind.
 */
public final class WorkloadRunner
{
  private WorkloadRunner()
  {
  }

  /**
   * @param threads     concurrent clients
   * @param duration    stop sending after this long
   * @param maxQueries  stop after this many queries in total ({@code <= 0}: no limit)
   * @param seed        seed of the query sequence (client {@code i} uses {@code seed + i})
   * @param context     entries added to every query's context (e.g. a budget, {@link QualityClient#BUDGET}); when
   *                    there are any, each answer's coverage is read from its response context
   */
  public record Options(int threads, Duration duration, int maxQueries, long seed, Map<String, Object> context)
  {
    public Options(int threads, Duration duration, int maxQueries, long seed)
    {
      this(threads, duration, maxQueries, seed, Map.of());
    }

    public Options
    {
      context = Map.copyOf(context);
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be >= 1, got " + threads);
      }
      if (duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException("duration must be positive, got " + duration);
      }
    }
  }

  public static WorkloadResult run(BrokerClient broker, QueryMix mix, Options options) throws InterruptedException
  {
    final ConcurrentLinkedQueue<QueryOutcome> outcomes = new ConcurrentLinkedQueue<>();
    final Map<QueryKind, ConcurrentHistogram> histograms = new EnumMap<>(QueryKind.class);
    for (QueryKind kind : QueryKind.values()) {
      histograms.put(kind, new ConcurrentHistogram(3));
    }
    final AtomicInteger budget = new AtomicInteger(options.maxQueries() <= 0 ? Integer.MAX_VALUE : options.maxQueries());
    final long start = System.nanoTime();
    final long end = start + options.duration().toNanos();
    final QualityClient quality = new QualityClient(broker.uri());
    final ExecutorService pool = Executors.newFixedThreadPool(options.threads(), r -> {
      final Thread t = new Thread(r, "getafix-workload-client");
      t.setDaemon(true);
      return t;
    });
    try {
      final List<Future<?>> clients = new ArrayList<>();
      for (int i = 0; i < options.threads(); i++) {
        final SplittableRandom random = new SplittableRandom(options.seed() + i);
        clients.add(pool.submit(() -> {
          while (System.nanoTime() < end && budget.getAndDecrement() > 0 && !Thread.currentThread().isInterrupted()) {
            final WorkloadQuery query = mix.next(random);
            final QueryOutcome outcome = execute(
                quality,
                options.context().isEmpty() ? query : withContext(query, options.context())
            );
            outcomes.add(outcome);
            histograms.get(outcome.kind()).recordValue(Math.max(1, outcome.latencyNanos() / 1000));
          }
        }));
      }
      for (Future<?> client : clients) {
        try {
          client.get();
        }
        catch (java.util.concurrent.ExecutionException e) {
          throw new IllegalStateException("workload client crashed", e.getCause());
        }
      }
    }
    finally {
      pool.shutdownNow();
      pool.awaitTermination(10, TimeUnit.SECONDS);
    }
    return new WorkloadResult(List.copyOf(outcomes), histograms, Duration.ofNanos(System.nanoTime() - start));
  }

  /** {@code query} with {@code extra} added to its context. */
  static WorkloadQuery withContext(WorkloadQuery query, Map<String, Object> extra)
  {
    final Map<String, Object> body = new HashMap<>(query.query());
    final Map<String, Object> context = new HashMap<>();
    if (body.get("context") instanceof Map<?, ?> existing) {
      existing.forEach((k, v) -> context.put(k.toString(), v));
    }
    context.putAll(extra);
    body.put("context", context);
    return new WorkloadQuery(query.kind(), query.fromHour(), query.toHourExclusive(), query.intervals(), body);
  }

  /** Runs a query, reading its status and its coverage if it is budgeted: any non-2xx status is a failure. */
  static QueryOutcome execute(QualityClient quality, WorkloadQuery query)
  {
    final Instant startedAt = Instant.now();
    final long t0 = System.nanoTime();
    try {
      final BrokerAnswer answer = quality.nativeQuery(query.query());
      final long latency = System.nanoTime() - t0;
      if (!answer.isSuccess()) {
        return new QueryOutcome(query, startedAt, latency, false, "HTTP " + answer.status() + ": " + answer.body(), -1);
      }
      if (!answer.body().isArray()) {
        return new QueryOutcome(query, startedAt, latency, false, "not a JSON array: " + answer.body(), -1);
      }
      return new QueryOutcome(
          query, startedAt, latency, true, null, rows(query, answer.body()), BrokerFormats.coverage(answer.context())
      );
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new QueryOutcome(query, startedAt, System.nanoTime() - t0, false, e.toString(), -1);
    }
    catch (IOException | RuntimeException e) {
      return new QueryOutcome(query, startedAt, System.nanoTime() - t0, false, e.toString(), -1);
    }
  }

  private static int rows(WorkloadQuery query, JsonNode result)
  {
    return query.kind() == QueryKind.TOPN && result.size() > 0 ? result.get(0).path("result").size() : result.size();
  }
}
