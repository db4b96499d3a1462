package org.getafix.broker.routing;

import org.apache.druid.client.DirectDruidClient;
import org.apache.druid.client.QueryableDruidServer;
import org.apache.druid.timeline.DataSegment;
import org.getafix.core.routing.CandidateView;

import java.util.Arrays;
import java.util.Set;

/**
 * Presents the holders Druid passes to a {@code ServerSelectorStrategy} to a core routing policy. One instance per
 * query thread is refilled for every pick, so presenting them allocates nothing; node ids and connection counts are
 * read lazily, only if the policy asks.
 */
final class DruidCandidateView implements CandidateView
{
  private QueryableDruidServer[] servers = new QueryableDruidServer[16];
  private int size;
  private DataSegment segment;

  void fill(Set<QueryableDruidServer> holders, DataSegment segment)
  {
    final int count = holders.size();
    if (servers.length < count) {
      servers = new QueryableDruidServer[Math.max(count, servers.length * 2)];
    }
    // HashSet.toArray(array) walks the hash table directly: unlike a for-each loop, it never allocates an iterator
    // (escape analysis does not always remove it). Druid holds the ServerSelector's lock while picking, so the set
    // cannot change under us; if another caller's set did, toArray returns a new array of the actual size.
    final QueryableDruidServer[] filled = holders.toArray(servers);
    if (filled != servers) {
      servers = filled;
      this.size = filled.length;
    } else {
      this.size = count;
    }
    this.segment = segment;
  }

  QueryableDruidServer server(int index)
  {
    return servers[index];
  }

  /** Removes a candidate (order is not kept), for picking several distinct servers. */
  void remove(int index)
  {
    servers[index] = servers[--size];
    servers[size] = null;
  }

  /** Drops the references, so a thread's view does not keep a departed server alive. */
  void clear()
  {
    Arrays.fill(servers, 0, size, null);
    size = 0;
    segment = null;
  }

  @Override
  public int size()
  {
    return size;
  }

  @Override
  public String nodeId(int index)
  {
    return servers[index].getServer().getName();
  }

  @Override
  public int inFlight(int index)
  {
    return servers[index].getQueryRunner() instanceof DirectDruidClient<?> client ? client.getNumOpenConnections() : 0;
  }

  @Override
  public Object segmentKey()
  {
    return segment == null ? null : segment.getId();
  }

  @Override
  public String segmentId()
  {
    return segment == null ? null : segment.getId().toString();
  }
}
