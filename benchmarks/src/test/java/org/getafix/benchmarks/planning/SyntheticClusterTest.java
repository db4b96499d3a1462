package org.getafix.benchmarks.planning;

import org.apache.druid.server.coordinator.ServerHolder;
import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.SegmentLoad;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SyntheticClusterTest
{
  private static final ClusterScale SCALE = ClusterScale.SEGMENTS_10K_NODES_50;

  private static SyntheticCluster cluster;

  @BeforeAll
  static void generate()
  {
    cluster = SyntheticCluster.generate(SCALE, PlanningSeeds.CLUSTER);
  }

  @Test
  void sameSeedGivesTheSameCluster()
  {
    final SyntheticCluster again = SyntheticCluster.generate(SCALE, PlanningSeeds.CLUSTER);
    assertEquals(cluster.segmentLoads(), again.segmentLoads());
    assertEquals(cluster.nodes(), again.nodes());
    assertArrayEquals(cluster.newSegments(), again.newSegments());
    for (int i = 0; i < cluster.segmentCount(); i++) {
      assertArrayEquals(cluster.currentHolders(i), again.currentHolders(i), "holders of segment " + i);
    }
  }

  @Test
  void anotherSeedGivesAnotherCluster()
  {
    final SyntheticCluster other = SyntheticCluster.generate(SCALE, PlanningSeeds.CLUSTER + 1);
    assertNotEquals(cluster.segmentLoads(), other.segmentLoads());
  }

  @Test
  void sizesAndIdsAreThoseOfTheScale()
  {
    final List<SegmentLoad> loads = cluster.segmentLoads();
    assertEquals(SCALE.segments(), loads.size());
    assertEquals(SCALE.nodes(), cluster.nodes().size());
    assertEquals(SCALE.newSegments(), cluster.newSegments().length);
    final Set<String> ids = new HashSet<>();
    loads.forEach(load -> ids.add(load.segmentId()));
    assertEquals(SCALE.segments(), ids.size(), "segment ids are unique");
    final Set<String> nodeIds = new HashSet<>();
    cluster.nodes().forEach(node -> nodeIds.add(node.nodeId()));
    assertEquals(SCALE.nodes(), nodeIds.size(), "node ids are unique");
  }

  @Test
  void segmentIdsAreTheDruidSegmentIds()
  {
    for (int i = 0; i < cluster.segmentCount(); i += 97) {
      assertEquals(cluster.dataSegment(i).getId().toString(), cluster.segmentLoad(i).segmentId());
      assertEquals(cluster.dataSegment(i).getSize(), cluster.segmentLoad(i).sizeBytes());
    }
  }

  @Test
  void loadsAreSkewedAndCapacitiesHeterogeneous()
  {
    final double[] loads = cluster.segmentLoads().stream().mapToDouble(SegmentLoad::load).sorted().toArray();
    final double total = Arrays.stream(loads).sum();
    double top1Percent = 0;
    for (int i = loads.length - loads.length / 100; i < loads.length; i++) {
      top1Percent += loads[i];
    }
    // Zipf(1) over 10k segments: the hottest 1% carry about half of all load.
    assertTrue(top1Percent / total > 0.4, "top 1% share " + top1Percent / total);
    final double[] capacities = cluster.nodes().stream().mapToDouble(NodeCapacity::capacity).sorted().toArray();
    assertTrue(capacities[capacities.length - 1] / capacities[0] > 3, "strongest / weakest node");
  }

  @Test
  void currentReplicasAreOnDistinctNodesThatHaveRoom()
  {
    final long[] used = new long[SCALE.nodes()];
    final Set<Integer> fresh = new HashSet<>();
    Arrays.stream(cluster.newSegments()).forEach(fresh::add);
    for (int i = 0; i < cluster.segmentCount(); i++) {
      final int[] holders = cluster.currentHolders(i);
      if (fresh.contains(i)) {
        assertEquals(0, holders.length, "a new segment is held nowhere");
        continue;
      }
      assertEquals(SyntheticCluster.CURRENT_REPLICAS, holders.length);
      assertEquals(holders.length, Arrays.stream(holders).distinct().count(), "replicas on distinct nodes");
      for (int holder : holders) {
        used[holder] += cluster.segmentLoad(i).sizeBytes();
      }
    }
    for (int k = 0; k < used.length; k++) {
      assertTrue(used[k] <= cluster.nodes().get(k).maxSizeBytes(), "node " + k + " overfilled");
    }
  }

  @Test
  void placementInputCarriesTheCurrentState()
  {
    final PlacementInput input = cluster.placementInput(new PlacementConstraints(2, 8, 0.2));
    assertEquals(SCALE.segments(), input.segments().size());
    assertEquals(SCALE.segments() - SCALE.newSegments(), input.currentHolders().size());
  }

  @Test
  void druidTierServesTheCurrentReplicas()
  {
    final DruidTier tier = new DruidTier(cluster);
    assertEquals(SCALE.newSegments(), tier.newSegments().size());
    final List<ServerHolder> run = tier.newRun();
    assertEquals(SCALE.nodes(), run.size());
    final long served = run.stream().mapToLong(holder -> holder.getServer().getNumSegments()).sum();
    assertEquals((long) SyntheticCluster.CURRENT_REPLICAS * (SCALE.segments() - SCALE.newSegments()), served);
    for (ServerHolder holder : run) {
      assertTrue(holder.getAvailableSize() >= 0, holder.getServer().getName() + " overfilled");
    }
  }
}
