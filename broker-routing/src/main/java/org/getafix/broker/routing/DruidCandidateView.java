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
    if (servers.length < holders.size()) {
      servers = new QueryableDruidServer[Math.max(holders.size(), servers.length * 2)];
    }
    int i = 0;
    for (QueryableDruidServer server : holders) {
      // Druid holds the ServerSelector's lock while picking, so the set cannot grow under us; stay in bounds anyway.
      if (i == servers.length) {
        break;
      }
      servers[i++] = server;
    }
    this.size = i;
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
