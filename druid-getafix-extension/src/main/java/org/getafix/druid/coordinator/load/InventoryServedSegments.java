package org.getafix.druid.coordinator.load;

import org.apache.druid.client.DruidServer;
import org.apache.druid.client.ServerInventoryView;
import org.apache.druid.server.coordination.ServerType;
import org.apache.druid.timeline.DataSegment;

import java.util.HashSet;
import java.util.Set;

/** {@link ServedSegments} over the Coordinator's server inventory, the view each Coordinator run is built from. */
public class InventoryServedSegments implements ServedSegments
{
  private final ServerInventoryView inventory;

  public InventoryServedSegments(ServerInventoryView inventory)
  {
    this.inventory = inventory;
  }

  @Override
  public Set<String> holders(DataSegment segment, String tier)
  {
    final Set<String> holders = new HashSet<>();
    for (DruidServer server : inventory.getInventory()) {
      if (isHistoricalOf(server, tier) && server.getSegment(segment.getId()) != null) {
        holders.add(server.getName());
      }
    }
    return holders;
  }

  @Override
  public Set<String> liveServers(String tier)
  {
    final Set<String> live = new HashSet<>();
    for (DruidServer server : inventory.getInventory()) {
      if (isHistoricalOf(server, tier)) {
        live.add(server.getName());
      }
    }
    return live;
  }

  public static boolean isHistoricalOf(DruidServer server, String tier)
  {
    return server.getType() == ServerType.HISTORICAL && tier.equals(server.getTier());
  }
}
