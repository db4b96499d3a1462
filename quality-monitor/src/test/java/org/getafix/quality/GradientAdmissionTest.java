package org.getafix.quality;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GradientAdmissionTest
{
  private final AtomicLong nanos = new AtomicLong();

  /** {@code n} queries of the given priority that start together and all end after {@code rttMillis}. */
  private void round(GradientAdmission admission, int n, boolean highPriority, long rttMillis)
  {
    final List<GradientAdmission.Ticket> tickets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      final GradientAdmission.Ticket ticket = admission.start(highPriority);
      if (ticket != null) {
        tickets.add(ticket);
      }
    }
    nanos.addAndGet(rttMillis * 1_000_000);
    tickets.forEach(t -> t.completed(false));
  }

  @Test
  void lowPriorityQueriesAreAdmittedOnlyBelowTheLimitAndHighPriorityAlways()
  {
    final GradientAdmission admission = new GradientAdmission(3, 4, nanos::get);
    assertNotNull(admission.start(true));
    assertNotNull(admission.start(false));
    assertNotNull(admission.start(false));
    assertNull(admission.start(false), "3 in flight at the limit 3");
    assertNotNull(admission.start(true), "high priority goes beyond the limit");
    assertEquals(4, admission.inFlight());
  }

  @Test
  void fewerThanHalfTheLimitInFlightLeaveTheLimitAsItIs()
  {
    final GradientAdmission admission = new GradientAdmission(20, 4, nanos::get);
    for (int i = 0; i < 50; i++) {
      round(admission, 5, true, i < 25 ? 100 : 5000);
    }
    assertEquals(20, admission.limit());
  }

  @Test
  void aTicketEndsOnceHoweverItEnds()
  {
    final GradientAdmission admission = new GradientAdmission(3, 4, nanos::get);
    final GradientAdmission.Ticket ticket = admission.start(false);
    ticket.completed(true);
    ticket.completed(false);
    ticket.released();
    assertEquals(0, admission.inFlight());
  }

  @Test
  void theLimitFallsWhenRoundTripTimesGrowAndRisesBackWhenTheyRecover()
  {
    // Every round fills the limit: Gradient2 leaves its limit alone while fewer than half of it are in flight.
    final GradientAdmission admission = new GradientAdmission(20, 4, nanos::get);
    for (int i = 0; i < 20; i++) {
      round(admission, admission.limit(), true, 100);
    }
    final int steady = admission.limit();
    // Ten times the RTT: the short-term average jumps above the long-term one until the latter catches up.
    int congested = steady;
    for (int i = 0; i < 10; i++) {
      round(admission, admission.limit(), true, 1000);
      congested = Math.min(congested, admission.limit());
    }
    assertTrue(congested < steady, steady + " -> " + congested);
    assertTrue(congested >= 1);
    assertNull(oneBeyond(admission, admission.limit()), "low priority beyond the current limit is shed");
    for (int i = 0; i < 50; i++) {
      round(admission, admission.limit(), true, 100);
    }
    assertTrue(admission.limit() > congested, congested + " -> " + admission.limit());
  }

  /** Starts {@code n} + 1 low-priority queries, then releases them all: the last one's ticket, null if it was shed. */
  private static GradientAdmission.Ticket oneBeyond(GradientAdmission admission, int n)
  {
    final List<GradientAdmission.Ticket> held = new ArrayList<>();
    GradientAdmission.Ticket last = null;
    for (int i = 0; i <= n; i++) {
      last = admission.start(false);
      if (last != null) {
        held.add(last);
      }
    }
    held.forEach(GradientAdmission.Ticket::released);
    return last;
  }
}
