package org.getafix.broker.routing;

import org.apache.druid.discovery.DiscoveryDruidNode;
import org.apache.druid.discovery.DruidNodeDiscovery;
import org.apache.druid.discovery.DruidNodeDiscoveryProvider;
import org.apache.druid.discovery.NodeRole;
import org.apache.druid.server.DruidNode;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** Discovery of a fixed set of nodes on localhost, one role per port list: ZooKeeper is not needed to test HTTP. */
final class FixedDiscovery extends DruidNodeDiscoveryProvider
{
  private final NodeRole role;
  private final List<DiscoveryDruidNode> nodes;

  FixedDiscovery(NodeRole role, int... ports)
  {
    this.role = role;
    this.nodes = java.util.Arrays.stream(ports)
                                 .mapToObj(port -> new DiscoveryDruidNode(
                                     new DruidNode(role.getJsonName(), "localhost", false, port, null, true, false),
                                     role,
                                     Map.of()
                                 ))
                                 .toList();
  }

  @Override
  public BooleanSupplier getForNode(DruidNode node, NodeRole nodeRole)
  {
    return () -> nodeRole == role;
  }

  @Override
  public DruidNodeDiscovery getForNodeRole(NodeRole nodeRole)
  {
    final Collection<DiscoveryDruidNode> found = nodeRole == role ? nodes : List.of();
    return new DruidNodeDiscovery()
    {
      @Override
      public Collection<DiscoveryDruidNode> getAllNodes()
      {
        return found;
      }

      @Override
      public void registerListener(Listener listener)
      {
        listener.nodesAdded(found);
        listener.nodeViewInitialized();
      }
    };
  }
}
