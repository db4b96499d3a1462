package org.getafix.quality;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.http.client.AbstractHttpClient;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.java.util.http.client.Request;
import org.apache.druid.java.util.http.client.response.ClientResponse;
import org.apache.druid.java.util.http.client.response.HttpResponseHandler;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryWatcher;
import org.jboss.netty.handler.codec.http.HttpChunk;
import org.jboss.netty.handler.codec.http.HttpResponse;
import org.joda.time.Duration;

import javax.annotation.Nullable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * What a {@link BudgetedDruidClient} needs to know of the request Druid's client sends for one of its sub-queries:
 * the request's future, which Druid's client registers with its query watcher before {@code run} returns (cancelling
 * it is how that client cancels a query on its server), and when the server's answer ends.
 *
 * <p>The answer's end is watched on the HTTP connection, not through the request's future: cancelling that future
 * leaves the connection open, and the server goes on with the query until it ends or is cancelled there. So it is the
 * one sign that a server has stopped working on a query the Broker gave up.
 */
public class RequestCapture implements QueryWatcher
{
  private final QueryWatcher delegate;
  private final ThreadLocal<Captured> current = new ThreadLocal<>();

  public RequestCapture(QueryWatcher delegate)
  {
    this.delegate = delegate;
  }

  @Override
  public void registerQueryFuture(Query<?> query, ListenableFuture<?> future)
  {
    delegate.registerQueryFuture(query, future);
    final Captured captured = current.get();
    if (captured != null && captured.request == null) {
      captured.request = future;
    }
  }

  /** {@code httpClient}, telling this capture when the answers to the requests it captures end. */
  HttpClient watching(HttpClient httpClient)
  {
    return new AbstractHttpClient()
    {
      @Override
      public <I, F> ListenableFuture<F> go(Request request, HttpResponseHandler<I, F> handler, @Nullable Duration timeout)
      {
        final Captured captured = current.get();
        if (captured == null || captured.watched) {
          return httpClient.go(request, handler, timeout);
        }
        captured.watched = true;
        final CompletableFuture<Void> answerEnd = captured.answerEnd;
        final ListenableFuture<F> response = httpClient.go(request, new EndWatchingHandler<>(handler, answerEnd), timeout);
        Futures.addCallback(response, new FutureCallback<>()
        {
          @Override
          public void onSuccess(F result)
          {
          }

          @Override
          public void onFailure(Throwable t)
          {
            // A request that failed, rather than one the Broker cancelled, has no answer coming.
            if (!(t instanceof CancellationException)) {
              answerEnd.complete(null);
            }
          }
        }, Execs.directExecutor());
        return response;
      }
    };
  }

  /** The request {@code call} sends, and its result. */
  <R> Sent<R> capturing(Supplier<R> call)
  {
    final Captured captured = new Captured();
    current.set(captured);
    final R result;
    try {
      result = call.get();
    }
    finally {
      current.remove();
    }
    if (!captured.watched) {
      // Nothing was sent, so no answer is coming.
      captured.answerEnd.complete(null);
    }
    return new Sent<>(result, captured.request, captured.answerEnd);
  }

  /**
   * The result of a call that sent one request, the request's future (null if Druid's client did not register one)
   * and the end of its answer (complete once the server has answered in full or the connection failed).
   */
  record Sent<R>(R result, @Nullable Future<?> future, CompletableFuture<Void> answerEnd)
  {
  }

  /** Filled in on the calling thread while one call runs. */
  private static final class Captured
  {
    @Nullable
    private Future<?> request;
    private boolean watched;
    private final CompletableFuture<Void> answerEnd = new CompletableFuture<>();
  }

  private static final class EndWatchingHandler<I, F> implements HttpResponseHandler<I, F>
  {
    private final HttpResponseHandler<I, F> delegate;
    private final CompletableFuture<Void> answerEnd;

    EndWatchingHandler(HttpResponseHandler<I, F> delegate, CompletableFuture<Void> answerEnd)
    {
      this.delegate = delegate;
      this.answerEnd = answerEnd;
    }

    @Override
    public ClientResponse<I> handleResponse(HttpResponse response, TrafficCop trafficCop)
    {
      return delegate.handleResponse(response, trafficCop);
    }

    @Override
    public ClientResponse<I> handleChunk(ClientResponse<I> clientResponse, HttpChunk chunk, long chunkNum)
    {
      return delegate.handleChunk(clientResponse, chunk, chunkNum);
    }

    @Override
    public ClientResponse<F> done(ClientResponse<I> clientResponse)
    {
      try {
        return delegate.done(clientResponse);
      }
      finally {
        answerEnd.complete(null);
      }
    }

    @Override
    public void exceptionCaught(ClientResponse<I> clientResponse, Throwable e)
    {
      try {
        delegate.exceptionCaught(clientResponse, e);
      }
      finally {
        answerEnd.complete(null);
      }
    }
  }
}
