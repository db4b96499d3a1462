package org.getafix.quality;

import org.eclipse.jetty.server.Request;
import org.junit.jupiter.api.Test;

import javax.servlet.DispatcherType;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestClockTest
{
  private static final long NOW = 1_000_000L;

  /** A request as Jetty serves it, its headers read at {@code receivedAt}. */
  static Request jettyRequest(long receivedAt)
  {
    final Request request = new Request(null, null);
    request.setTimeStamp(receivedAt);
    return request;
  }

  /** A request that is not Jetty's, as a wrapping container might hand on: nothing stamped it. */
  private static ServletRequest plainRequest()
  {
    return (ServletRequest) Proxy.newProxyInstance(
        RequestClockTest.class.getClassLoader(),
        new Class<?>[]{ServletRequest.class},
        (proxy, method, args) -> null
    );
  }

  @Test
  void aRequestCountsFromWhenJettyReadItsHeaders() throws Exception
  {
    final RequestClock clock = new RequestClock(() -> NOW);
    final AtomicReference<RequestClock.ServedRequest> seen = new AtomicReference<>();
    clock.doFilter(jettyRequest(NOW - 30), null, (request, response) -> seen.set(clock.current()));
    assertEquals(NOW - 30, seen.get().arrivalMillis(), "it waited 30 ms for a thread before the filter");
  }

  @Test
  void anUnstampedOrFutureArrivalIsNow() throws Exception
  {
    final RequestClock clock = new RequestClock(() -> NOW);
    final List<Long> arrivals = new ArrayList<>();
    for (ServletRequest request : List.of(plainRequest(), jettyRequest(0), jettyRequest(NOW + 5))) {
      clock.doFilter(request, null, (req, resp) -> arrivals.add(clock.current().arrivalMillis()));
    }
    assertEquals(List.of(NOW, NOW, NOW), arrivals);
  }

  @Test
  void whatARequestLeavesForItsEndRunsWithTheTimeItsResponseEnded() throws Exception
  {
    final AtomicLong now = new AtomicLong(NOW);
    final RequestClock clock = new RequestClock(now::get);
    final List<String> ran = new ArrayList<>();
    final AtomicReference<RequestClock.ServedRequest> served = new AtomicReference<>();
    clock.doFilter(jettyRequest(NOW), null, (request, response) -> {
      served.set(clock.current());
      assertTrue(clock.current().whenEnded(end -> ran.add("first at " + (end - NOW))));
      assertTrue(clock.current().whenEnded(end -> ran.add("second at " + (end - NOW))));
      // The rows are written and flushed after the query's last row left the walker.
      now.addAndGet(25);
      assertTrue(ran.isEmpty(), "nothing runs before the response has ended");
    });
    assertEquals(List.of("first at 25", "second at 25"), ran);
    assertNull(clock.current(), "the thread serves no request once the filter returned");
    assertFalse(served.get().whenEnded(end -> ran.add("late")), "an ended request takes nothing more");
    assertEquals(2, ran.size());
  }

  @Test
  void aFailingActionNeitherStopsTheOthersNorFailsTheRequest() throws Exception
  {
    final RequestClock clock = new RequestClock(() -> NOW);
    final List<String> ran = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    try (LogCapture ignored = new LogCapture(RequestClock.class, warnings)) {
      clock.doFilter(jettyRequest(NOW), null, (request, response) -> {
        clock.current().whenEnded(end -> {
          throw new IllegalStateException("broken listener");
        });
        clock.current().whenEnded(end -> ran.add("after"));
      });
    }
    assertEquals(List.of("after"), ran);
    assertEquals(1, warnings.size(), warnings.toString());
  }

  @Test
  void aFailedRequestStillEndsAndLeavesTheThreadClean()
  {
    final RequestClock clock = new RequestClock(() -> NOW);
    final List<Long> ends = new ArrayList<>();
    final ServletException failure = assertThrows(ServletException.class, () -> clock.doFilter(
        jettyRequest(NOW),
        null,
        (request, response) -> {
          clock.current().whenEnded(ends::add);
          throw new ServletException("the query failed");
        }
    ));
    assertEquals("the query failed", failure.getMessage());
    assertEquals(List.of(NOW), ends);
    assertNull(clock.current());
  }

  @Test
  void theHolderPutsTheClockOnTheQueryPathsForRequestsOnly()
  {
    final RequestClock clock = new RequestClock();
    final RequestClock.Holder holder = new RequestClock.Holder(clock);
    assertSame(clock, holder.getFilter());
    assertNull(holder.getFilterClass(), "an instance, which the walker shares");
    assertArrayEquals(new String[]{"/druid/v2/*"}, holder.getPaths());
    assertEquals(EnumSet.of(DispatcherType.REQUEST), holder.getDispatcherType());
  }
}
