package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.core.wire.MatureRunReport;
import org.getafix.localcluster.cluster.CpuCgroup;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.LocalNode;
import org.getafix.localcluster.client.GetafixClient;
import org.getafix.localcluster.client.BrokerFormats;
import org.getafix.localcluster.client.QualityClient;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples the cluster once per period on a background thread while a phase runs: who serves which segment, each
 * Historical's query CPU time and segment scans, Getafix's tiers and the current CPU caps; and, when given the
 * Broker's quality monitor, the mature runs it finished since the last look (its endpoint lists only the most recent
 * ones, so it is read every second). A sample that fails (a node busy or restarting) is skipped, never fatal.
 */
final class PhaseSampler implements AutoCloseable
{
  private final LocalDruidCluster cluster;
  private final GetafixClient getafix;
  private final String dataSource;
  private final boolean withTiers;
  private final long startNanos = System.nanoTime();
  private final List<Sample> samples = new ArrayList<>();
  /**
   * How often the mature runs are read: the endpoint lists the latest 50, and the demo's Broker finishes up to about
   * 20 a second (80 queries a second, a quarter sampled).
   */
  private static final long QUALITY_PERIOD_MILLIS = 1000;
  private final QualityClient quality;
  /** Query id → its mature run, as the quality endpoint listed it. */
  private final Map<String, MatureRunReport> matureRuns = new LinkedHashMap<>();
  private boolean closed;
  private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, r -> {
    final Thread t = new Thread(r, "getafix-demo-sampler");
    t.setDaemon(true);
    return t;
  });

  /**
   * @param quality  the Broker's quality monitor, whose mature runs to collect; null for none
   */
  PhaseSampler(LocalDruidCluster cluster, String dataSource, boolean withTiers, QualityClient quality, long periodMillis)
  {
    this.quality = quality;
    this.cluster = cluster;
    this.getafix = new GetafixClient(cluster);
    this.dataSource = dataSource;
    this.withTiers = withTiers;
    timer.scheduleAtFixedRate(this::sample, 0, periodMillis, TimeUnit.MILLISECONDS);
    if (quality != null) {
      timer.scheduleAtFixedRate(this::collectMatureRuns, 0, QUALITY_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  /** Seconds since the phase started. */
  double seconds()
  {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private void collectMatureRuns()
  {
    try {
      final List<MatureRunReport> recent = BrokerFormats.recentMatureRuns(quality.qualityState());
      synchronized (matureRuns) {
        recent.forEach(run -> matureRuns.putIfAbsent(run.queryId(), run));
      }
    }
    catch (RuntimeException e) {
      System.err.println("[demo] quality sample skipped: " + e.getMessage());
    }
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

  /** The mature runs seen so far, by query id. */
  Map<String, MatureRunReport> matureRuns()
  {
    synchronized (matureRuns) {
      return Map.copyOf(matureRuns);
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
    if (quality != null) {
      collectMatureRuns();
    }
  }
}
