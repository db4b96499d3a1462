package org.getafix.quality;

import com.google.common.util.concurrent.ListenableFuture;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryWatcher;

import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The query watcher a {@link BudgetedDruidClient} gives Druid's client, which registers each request's future with
 * it: it also hands that future to a caller on the same thread. Druid's client registers it before {@code run}
 * returns, and cancelling it is how that client cancels a query on its server.
 */
public class RequestCapture implements QueryWatcher
{
  private final QueryWatcher delegate;
  private final ThreadLocal<Consumer<Future<?>>> taker = new ThreadLocal<>();

  public RequestCapture(QueryWatcher delegate)
  {
    this.delegate = delegate;
  }

  @Override
  public void registerQueryFuture(Query<?> query, ListenableFuture<?> future)
  {
    delegate.registerQueryFuture(query, future);
    final Consumer<Future<?>> consumer = taker.get();
    if (consumer != null) {
      consumer.accept(future);
    }
  }

  /** The result of {@code call}, whose requests' futures go to {@code consumer}. */
  <R> R capturing(Consumer<Future<?>> consumer, Supplier<R> call)
  {
    taker.set(consumer);
    try {
      return call.get();
    }
    finally {
      taker.remove();
    }
  }
}
