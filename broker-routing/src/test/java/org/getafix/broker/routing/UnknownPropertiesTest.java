package org.getafix.broker.routing;

import org.getafix.core.contract.OwnedProperties;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The Broker's {@code druid.getafix.routing.*} keys, and the ones nothing reads. */
class UnknownPropertiesTest
{
  private static final OwnedProperties OWNED = GetafixRoutingModule.ownedProperties();

  @Test
  void theKeysAreTheConfigClasss()
  {
    assertEquals(
        Set.of(
            "druid.getafix.routing.period",
            "druid.getafix.routing.statsTimeout",
            "druid.getafix.routing.statsPath",
            "druid.getafix.routing.latencyMetric",
            "druid.getafix.routing.latencyAlpha",
            "druid.getafix.routing.forgetNodesAfter"
        ),
        OWNED.keys()
    );
  }

  @Test
  void onlyUnknownRoutingKeysAreReported()
  {
    assertEquals(
        List.of(new OwnedProperties.Unknown("druid.getafix.routing.perid", "druid.getafix.routing.period")),
        OWNED.unknown(List.of(
            "druid.getafix.routing.period",
            "druid.getafix.routing.perid",
            "druid.getafix.tier",
            "druid.getafix.quality.hedging",
            "druid.broker.balancer.maxTableAge"
        ))
    );
  }
}
