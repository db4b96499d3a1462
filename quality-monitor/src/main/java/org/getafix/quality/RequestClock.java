package org.getafix.quality;

import com.google.inject.Inject;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.server.initialization.jetty.ServletFilterHolder;
import org.eclipse.jetty.server.Request;

import javax.annotation.Nullable;
import javax.servlet.DispatcherType;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The time a query's client waits, as the Broker sees it: from the request's arrival (when Jetty read its headers) to
 * the end of its response, once Druid has written and flushed its last row. The budget paper counts a response time
 * so (from a request's arrival at the server to its response being sent), and so do the clients; Druid's walker sees
 * a query only after its body was read, its authorisation checked and, for SQL, its plan made, and a controller fed
 * from there holds its target while its clients wait longer.
 *
 * <p>A servlet filter on the Broker's query paths. Druid serves a query request on the thread that entered the filter:
 * it plans and runs the request's queries and writes their results there ({@code QueryResultPusher}), so the walker
 * finds the request it serves with {@link #current()}, and what a query leaves {@link ServedRequest#whenEnded for the
 * response's end} runs when the filter chain returns. A query run off a request thread (the Broker's own metadata
 * queries, mature runs, replays) has no request, and neither has a JDBC result fetched in a later frame than the one
 * that ran it: these count from the walker and to their last row.
 */
public class RequestClock implements Filter
{
  /** Native queries ({@code /druid/v2/}) and SQL ({@code /druid/v2/sql/}). */
  static final String PATH = "/druid/v2/*";
  private static final Logger log = new Logger(RequestClock.class);

  private final ThreadLocal<ServedRequest> served = new ThreadLocal<>();
  private final LongSupplier clock;

  @Inject
  public RequestClock()
  {
    this(System::currentTimeMillis);
  }

  /** With {@code clock} in epoch milliseconds, Jetty's and the walker's clock. */
  RequestClock(LongSupplier clock)
  {
    this.clock = clock;
  }

  /** The request this thread is serving; null off a request thread. */
  @Nullable
  ServedRequest current()
  {
    return served.get();
  }

  @Override
  public void init(FilterConfig filterConfig)
  {
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException
  {
    final ServedRequest servedRequest = new ServedRequest(arrivalMillis(request));
    served.set(servedRequest);
    try {
      chain.doFilter(request, response);
    }
    finally {
      served.remove();
      servedRequest.end(clock.getAsLong());
    }
  }

  /**
   * When Jetty read the request's headers, which is before a busy Broker had a thread to serve it; now if Jetty did not
   * stamp it.
   */
  private long arrivalMillis(ServletRequest request)
  {
    final Request jettyRequest = Request.getBaseRequest(request);
    final long stamped = jettyRequest == null ? 0 : jettyRequest.getTimeStamp();
    final long now = clock.getAsLong();
    return stamped > 0 && stamped <= now ? stamped : now;
  }

  @Override
  public void destroy()
  {
  }

  /** One request to the Broker, from its arrival, with what its queries leave for the end of its response. */
  static final class ServedRequest
  {
    private final long arrivalMillis;
    /** Null once the response has ended. */
    @Nullable
    private List<LongConsumer> atEnd = new ArrayList<>();

    ServedRequest(long arrivalMillis)
    {
      this.arrivalMillis = arrivalMillis;
    }

    /** Epoch milliseconds. */
    long arrivalMillis()
    {
      return arrivalMillis;
    }

    /**
     * Runs {@code action} with the time the response ends, once it has; false, running nothing, if it already has
     * ended (a JDBC result read after its frame).
     */
    synchronized boolean whenEnded(LongConsumer action)
    {
      if (atEnd == null) {
        return false;
      }
      atEnd.add(action);
      return true;
    }

    /** The response has ended at {@code endMillis}: what was left for it runs, and never fails the request. */
    void end(long endMillis)
    {
      final List<LongConsumer> actions;
      synchronized (this) {
        actions = atEnd;
        atEnd = null;
      }
      for (LongConsumer action : actions) {
        try {
          action.accept(endMillis);
        }
        catch (RuntimeException e) {
          log.warn(e, "Could not account for the end of a response");
        }
      }
    }
  }

  /** Puts the clock in front of the Broker's query paths. */
  static final class Holder implements ServletFilterHolder
  {
    private final RequestClock clock;

    @Inject
    Holder(RequestClock clock)
    {
      this.clock = clock;
    }

    @Override
    public Filter getFilter()
    {
      return clock;
    }

    @Override
    @Nullable
    public Class<? extends Filter> getFilterClass()
    {
      return null;
    }

    @Override
    @Nullable
    public Map<String, String> getInitParameters()
    {
      return null;
    }

    @Override
    @Deprecated
    public String getPath()
    {
      return PATH;
    }

    @Override
    public EnumSet<DispatcherType> getDispatcherType()
    {
      return EnumSet.of(DispatcherType.REQUEST);
    }
  }
}
