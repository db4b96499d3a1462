package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.it.cluster.CpuCgroup;
import org.getafix.it.cluster.LocalDruidCluster;
import org.getafix.it.cluster.LocalNode;
import org.getafix.it.getafix.GetafixClient;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples the cluster once per period on a background thread while a phase runs: who serves which segment, each
 * Historical's query CPU time and segment scans, Getafix's tiers and the current CPU caps. A sample that fails (a
 * node busy or restarting) is skipped, never fatal.
 */
final class PhaseSampler implements AutoCloseable
{
  private final LocalDruidCluster cluster;
  private final GetafixClient getafix;
  private final String dataSource;
  private final boolean withTiers;
  private final long startNanos = System.nanoTime();
  private final List<Sample> samples = new ArrayList<>();
  private boolean closed;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    final Thread t = new Thread(r, "getafix-demo-sampler");
    t.setDaemon(true);
    return t;
  });

  PhaseSampler(LocalDruidCluster cluster, String dataSource, boolean withTiers, long periodMillis)
  {
    this.cluster = cluster;
    this.getafix = new GetafixClient(cluster);
    this.dataSource = dataSource;
    this.withTiers = withTiers;
    timer.scheduleAtFixedRate(this::sample, 0, periodMillis, TimeUnit.MILLISECONDS);
  }

  /** Seconds since the phase started. */
  double seconds()
  {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private void sample()
  {
    try {
      final Map<String, Long> cpu = new HashMap<>();
      final Map<String, Long> scans = new HashMap<>();
      final Map<String, Double> quotas = new HashMap<>();
      for (int i = 0; i < cluster.historicals().size(); i++) {
        final LocalNode node = cluster.historical(i);
        final JsonNode stats = getafix.historicalStats(node);
        cpu.put(node.hostAndPort(), stats.path("cpuTimeMicros").asLong());
        scans.put(node.hostAndPort(), stats.path("segmentScans").asLong());
        quotas.put(node.hostAndPort(), node.cgroup().map(CpuCgroup::quota).orElse(cluster.config().cpuQuota(i)));
      }
      final Map<String, String> tiers = withTiers ? getafix.tiers() : Map.of();
      final Sample sample = new Sample(
          seconds(),
          GetafixClient.holdersBySegment(cluster.coordinatorClient().segmentsPerServer(dataSource)),
          cpu,
          scans,
          tiers,
          quotas
      );
      synchronized (samples) {
        samples.add(sample);
      }
    }
    catch (RuntimeException e) {
      System.err.println("[demo] sample skipped: " + e.getMessage());
    }
  }

  List<Sample> samples()
  {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /** Stops sampling after one last sample; idempotent. */
  @Override
  public synchronized void close()
  {
    if (closed) {
      return;
    }
    closed = true;
    timer.shutdownNow();
    try {
      timer.awaitTermination(30, TimeUnit.SECONDS);
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sample();
  }
}
