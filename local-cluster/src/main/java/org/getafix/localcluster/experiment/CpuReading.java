package org.getafix.localcluster.experiment;

import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.LocalNode;

import java.util.List;

/**
 * The CPU time the cluster's nodes had used at one moment: each Historical's ({@link LocalNode#cpuUsageNanos}, its
 * cgroup's where it has one, so every thread of it counts) and the Broker's process's.
 *
 * @param historicalNanos each Historical's, in the cluster's order
 * @param brokerNanos     the Broker's; its process restarts with the Broker, so only two reads of one Broker compare
 */
public record CpuReading(List<Long> historicalNanos, long brokerNanos)
{
  public CpuReading
  {
    historicalNanos = List.copyOf(historicalNanos);
  }

  public static CpuReading of(LocalDruidCluster cluster)
  {
    return new CpuReading(
        cluster.historicals().stream().map(LocalNode::cpuUsageNanos).toList(),
        cluster.broker().cpuUsageNanos()
    );
  }

  /** The CPU seconds all Historicals used together since {@code earlier}. */
  public double historicalSecondsSince(CpuReading earlier)
  {
    if (earlier.historicalNanos.size() != historicalNanos.size()) {
      throw new IllegalArgumentException(
          historicalNanos.size() + " Historicals read against " + earlier.historicalNanos.size()
      );
    }
    long nanos = 0;
    for (int h = 0; h < historicalNanos.size(); h++) {
      nanos += historicalNanos.get(h) - earlier.historicalNanos.get(h);
    }
    return nanos / 1e9;
  }

  /** The CPU seconds the Broker used since {@code earlier}. */
  public double brokerSecondsSince(CpuReading earlier)
  {
    return (brokerNanos - earlier.brokerNanos) / 1e9;
  }
}
