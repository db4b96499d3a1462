package org.getafix.quality;

import org.apache.druid.java.util.common.guava.Accumulator;
import org.apache.druid.java.util.common.guava.DelegatingYieldingAccumulator;
import org.apache.druid.java.util.common.guava.Sequence;
import org.apache.druid.java.util.common.guava.Yielder;
import org.apache.druid.java.util.common.guava.YieldingAccumulator;

import java.util.function.Function;

/**
 * A sub-query's answer as its Historical streams it, or, if the Historical could not be reached ({@link Unreachable})
 * before the first row, the answer {@code failover} makes from other holders instead. Druid's client reports a
 * refused connection only when the answer is first read, so the switch happens there; once a row has gone on, a
 * failure is the query's, as in stock Druid.
 */
final class FailoverSequence<T> implements Sequence<T>
{
  private final Sequence<T> primary;
  private final Function<RuntimeException, Sequence<T>> failover;

  /**
   * @param failover the answer without the unreachable Historical, given its failure; throws that failure if there is
   *                 none (a segment no other server holds)
   */
  FailoverSequence(Sequence<T> primary, Function<RuntimeException, Sequence<T>> failover)
  {
    this.primary = primary;
    this.failover = failover;
  }

  @Override
  public <OutType> OutType accumulate(OutType initValue, Accumulator<OutType, T> accumulator)
  {
    final boolean[] consumed = {false};
    try {
      return primary.accumulate(initValue, (accumulated, in) -> {
        consumed[0] = true;
        return accumulator.accumulate(accumulated, in);
      });
    }
    catch (RuntimeException e) {
      if (consumed[0] || !Unreachable.isUnreachable(e)) {
        throw e;
      }
      return failover.apply(e).accumulate(initValue, accumulator);
    }
  }

  @Override
  public <OutType> Yielder<OutType> toYielder(OutType initValue, YieldingAccumulator<OutType, T> accumulator)
  {
    final boolean[] consumed = {false};
    try {
      // Druid's yielder reads up to the first yield here, which follows a row: a failure after it is not caught.
      return primary.toYielder(initValue, new DelegatingYieldingAccumulator<>(accumulator)
      {
        @Override
        public OutType accumulate(OutType accumulated, T in)
        {
          consumed[0] = true;
          return super.accumulate(accumulated, in);
        }
      });
    }
    catch (RuntimeException e) {
      if (consumed[0] || !Unreachable.isUnreachable(e)) {
        throw e;
      }
      return failover.apply(e).toYielder(initValue, accumulator);
    }
  }
}
