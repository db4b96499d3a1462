package org.getafix.core.realise;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Predicate;

/**
 * The plan-driven loads and drops one round may still issue. A fresh one per round (see {@link ChurnLimits}),
 * spent by one thread at a time; what it spent, in loads, bytes loaded and drops, may be read from any thread.
 */
public final class ChurnBudget
{
  private final int maxLoads;
  private final int maxDrops;
  private volatile int loadsSpent;
  private volatile long loadBytesSpent;
  private volatile int dropsSpent;

  /** Negative limits count as 0: a bad setting stops churn rather than the caller. */
  ChurnBudget(int maxLoads, int maxDrops)
  {
    this.maxLoads = Math.max(0, maxLoads);
    this.maxDrops = Math.max(0, maxDrops);
  }

  /** Takes one load of a segment of {@code bytes} from the budget; false when the round's loads are spent. */
  public boolean tryLoad(long bytes)
  {
    if (loadsSpent >= maxLoads) {
      return false;
    }
    loadsSpent = loadsSpent + 1;
    loadBytesSpent = loadBytesSpent + bytes;
    return true;
  }

  /** Takes one drop from the budget; false when the round's drops are spent. */
  public boolean tryDrop()
  {
    if (dropsSpent >= maxDrops) {
      return false;
    }
    dropsSpent = dropsSpent + 1;
    return true;
  }

  public int loadsSpent()
  {
    return loadsSpent;
  }

  /** The bytes of the segments of the loads spent. */
  public long loadBytesSpent()
  {
    return loadBytesSpent;
  }

  public int dropsSpent()
  {
    return dropsSpent;
  }

  /**
   * The elements of {@code ordered} that may load a segment of {@code bytes}: the first {@code free} without spending
   * (they restore a floor), then those the budget still pays for. Lazy, so a load is spent only when the caller takes
   * its element.
   */
  public <T> Iterator<T> admitLoads(Iterator<T> ordered, int free, long bytes)
  {
    final int[] unpaid = {free};
    return new Admitted<>(ordered, element -> unpaid[0]-- > 0 || tryLoad(bytes));
  }

  /** The elements of {@code ordered} that may be dropped, each spending one drop; lazy like {@link #admitLoads}. */
  public <T> Iterator<T> admitDrops(Iterator<T> ordered)
  {
    return new Admitted<>(ordered, element -> tryDrop());
  }

  /** The elements of an iterator that pass a test, the test run only as the caller reaches them. */
  private static final class Admitted<T> implements Iterator<T>
  {
    private final Iterator<T> source;
    private final Predicate<T> admit;
    private T next;
    private boolean ready;

    Admitted(Iterator<T> source, Predicate<T> admit)
    {
      this.source = source;
      this.admit = admit;
    }

    @Override
    public boolean hasNext()
    {
      while (!ready && source.hasNext()) {
        final T candidate = source.next();
        if (admit.test(candidate)) {
          next = candidate;
          ready = true;
        }
      }
      return ready;
    }

    @Override
    public T next()
    {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      ready = false;
      return next;
    }
  }
}
