package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.getafix.localcluster.experiment.BusyQuietCycles.Kind.BUSY;
import static org.getafix.localcluster.experiment.BusyQuietCycles.Kind.QUIET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BusyQuietCyclesTest
{
  @Test
  void eachCycleIsABusyPhaseThenAQuietOne()
  {
    final BusyQuietCycles cycles = new BusyQuietCycles(2, Duration.ofSeconds(20), Duration.ofSeconds(5), 4);
    assertEquals(
        List.of(
            new BusyQuietCycles.Phase(BUSY, Duration.ofSeconds(20)),
            new BusyQuietCycles.Phase(QUIET, Duration.ofSeconds(5)),
            new BusyQuietCycles.Phase(BUSY, Duration.ofSeconds(20)),
            new BusyQuietCycles.Phase(QUIET, Duration.ofSeconds(5))
        ),
        cycles.phases()
    );
    assertEquals(Duration.ofSeconds(50), cycles.length());
  }

  @Test
  void theBenchsCyclesFitItsTimeAndQuickIsShorter()
  {
    final BusyQuietCycles full = BusyQuietCycles.standard(false);
    final BusyQuietCycles quick = BusyQuietCycles.standard(true);
    assertEquals(3, full.cycles());
    assertEquals(4, full.busyClients(), "twice the calibration's 2 clients");
    assertTrue(full.length().compareTo(Duration.ofSeconds(90)) <= 0, "two setups x 3 repetitions in about 15 minutes");
    assertTrue(quick.length().compareTo(full.length()) < 0);
  }

  @Test
  void emptyPhasesOrNoClientsAreRefused()
  {
    final Duration second = Duration.ofSeconds(1);
    assertThrows(IllegalArgumentException.class, () -> new BusyQuietCycles(0, second, second, 1));
    assertThrows(IllegalArgumentException.class, () -> new BusyQuietCycles(1, Duration.ZERO, second, 1));
    assertThrows(IllegalArgumentException.class, () -> new BusyQuietCycles(1, second, second.negated(), 1));
    assertThrows(IllegalArgumentException.class, () -> new BusyQuietCycles(1, second, second, 0));
  }
}
