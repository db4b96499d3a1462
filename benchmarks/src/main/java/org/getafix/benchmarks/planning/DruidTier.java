package org.getafix.benchmarks.planning;

import org.apache.druid.client.DruidServer;
import org.apache.druid.client.ImmutableDruidServer;
import org.apache.druid.server.coordination.ServerType;
import org.apache.druid.server.coordinator.ServerHolder;
import org.apache.druid.timeline.DataSegment;
import org.getafix.core.placement.plan.NodeCapacity;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link SyntheticCluster} as Druid's Coordinator sees it: one Historical per node, each serving the segments the
 * cluster's current state puts on it, and the new segments still to place.
 */
final class DruidTier
{
  private final List<ImmutableDruidServer> servers;
  private final List<DataSegment> newSegments;

  DruidTier(SyntheticCluster cluster)
  {
    final List<NodeCapacity> nodes = cluster.nodes();
    final List<DruidServer> mutable = new ArrayList<>(nodes.size());
    for (NodeCapacity node : nodes) {
      mutable.add(new DruidServer(
          node.nodeId(),
          node.nodeId(),
          null,
          node.maxSizeBytes(),
          ServerType.HISTORICAL,
          SyntheticCluster.TIER,
          0
      ));
    }
    final int[] fresh = cluster.newSegments();
    this.newSegments = new ArrayList<>(fresh.length);
    for (int i = 0; i < cluster.segmentCount(); i++) {
      final int[] holders = cluster.currentHolders(i);
      if (holders.length == 0) {
        newSegments.add(cluster.dataSegment(i));
        continue;
      }
      // One DataSegment object shared by all replicas, as in the Coordinator's snapshot.
      final DataSegment segment = cluster.dataSegment(i);
      for (int holder : holders) {
        mutable.get(holder).addDataSegment(segment);
      }
    }
    this.servers = new ArrayList<>(mutable.size());
    for (DruidServer server : mutable) {
      servers.add(server.toImmutableDruidServer());
    }
  }

  List<DataSegment> newSegments()
  {
    return newSegments;
  }

  /**
   * Fresh per-run server state, as a Coordinator run builds it: no queue limit (so only disk space bounds a
   * load), nothing decommissioning.
   */
  List<ServerHolder> newRun()
  {
    final List<ServerHolder> holders = new ArrayList<>(servers.size());
    for (ImmutableDruidServer server : servers) {
      holders.add(new ServerHolder(server, new IdleLoadQueuePeon(), false, 0, 1));
    }
    return holders;
  }
}
