package org.getafix.simulator.cluster;

import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.routing.CoreRouting;
import org.getafix.simulator.workload.QueryType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Copies of a share race: the first answer counts once, the losers are cancelled, a hedge goes out only if late. */
class RaceTest
{
  private final EventLoop loop = new EventLoop();
  private final List<Double> queriesDone = new ArrayList<>();
  private final List<String> events = new ArrayList<>();
  private final Cluster cluster = new Cluster(
      loop,
      List.of(new Cluster.NodeSpec("a", 1, 1, null), new Cluster.NodeSpec("b", 1, 1, null)),
      1,
      1e9,
      0,
      CoreRouting.leastConnections(List.of("a", "b"), 1, new SplittableRandom(1)),
      0,
      100
  );

  RaceTest()
  {
    cluster.setQueryListener((query, now) -> queriesDone.add(now));
  }

  /** Copies on {@code upFront}, and a hedge to b after {@code hedgeAfter} seconds. */
  private RedundancyPolicy policy(int[] upFront, double hedgeAfter)
  {
    return new RedundancyPolicy()
    {
      @Override
      public Placement place(Segment segment, IntSupplier routed)
      {
        return new Placement(upFront, false);
      }

      @Override
      public double hedgeAfterSeconds(Segment segment, int node)
      {
        return hedgeAfter;
      }

      @Override
      public int hedgeTo(Segment segment, int lateNode)
      {
        events.add("hedge " + lateNode + " at " + loop.now());
        return 1;
      }

      @Override
      public void onAnswer(int node, boolean token, double response, double service, double share, double at)
      {
        events.add("answer " + node + " after " + share);
      }

      @Override
      public void onQueryDone(double latencySeconds)
      {
      }

      @Override
      public void onCancelled(int node, boolean token, double elapsedSeconds)
      {
        events.add("cancel " + node + " after " + elapsedSeconds);
      }
    };
  }

  private void oneQuery()
  {
    final Segment segment = cluster.addLoadedSegment("s", 1, 0);
    segment.loaded.add(1);
    final Query query = new Query(0, new QueryType("q", 1, 1, 0), 0);
    loop.schedule(0, () -> cluster.dispatch(query, segment, 1.0, 0));
    loop.runToCompletion();
  }

  @Test
  void theFirstCopyToFinishAnswersAndTheOtherIsCancelled()
  {
    cluster.nodes()[0].slowDown(0, 0.25);
    cluster.setRedundancy(policy(new int[]{0, 1}, Double.POSITIVE_INFINITY));
    oneQuery();
    assertEquals(List.of("cancel 0 after 1.0", "answer 1 after 1.0"), events);
    assertEquals(List.of(1.0), queriesDone);
    assertEquals(0, cluster.nodes()[0].queuedTasks());
  }

  @Test
  void aLateShareIsHedgedAndTheHedgeCanWin()
  {
    cluster.nodes()[0].slowDown(0, 0.25);
    cluster.setRedundancy(policy(new int[]{0}, 0.5));
    oneQuery();
    assertEquals(List.of("hedge 0 at 0.5", "cancel 0 after 1.5", "answer 1 after 1.5"), events);
    assertEquals(List.of(1.5), queriesDone);
  }

  @Test
  void aShareAnsweredBeforeItsHedgePointIsNotHedged()
  {
    cluster.setRedundancy(policy(new int[]{0}, 2));
    oneQuery();
    assertEquals(List.of("answer 0 after 1.0"), events);
    assertEquals(List.of(1.0), queriesDone);
  }

  @Test
  void aStallSlowsTheTasksThatStartInIt()
  {
    final Historical node = cluster.nodes()[0];
    node.stallPeriodically(10, 2, 5, 0.1);
    assertEquals(1.0, node.speedAt(4.9));
    assertEquals(0.1, node.speedAt(5), 1e-12);
    assertEquals(0.1, node.speedAt(16.9), 1e-12);
    assertEquals(1.0, node.speedAt(17));
  }

  /** What the node's stall meter reports: the share of each stall its factor takes away, within the round. */
  @Test
  void aStallCountsAsStalledTimeInTheRoundsItOverlaps()
  {
    final Historical node = cluster.nodes()[0];
    assertEquals(0.0, node.stalledSecondsIn(0, 30), 0.0, "a node without stalls");
    node.stallPeriodically(10, 2, 5, 0.1);
    assertEquals(0.0, node.stalledSecondsIn(0, 5), 1e-12, "before the first stall");
    assertEquals(1.8, node.stalledSecondsIn(3, 9), 1e-12);
    assertEquals(0.9, node.stalledSecondsIn(6, 8), 1e-12, "a round that ends after the stall began a second before");
    assertEquals(2 * 1.8, node.stalledSecondsIn(4, 24), 1e-12, "two stalls");
    assertEquals(0.9, node.stalledSecondsIn(16, 20), 1e-12, "the stall's last second");
  }
}
