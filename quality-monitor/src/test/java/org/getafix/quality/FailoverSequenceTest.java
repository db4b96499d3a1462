package org.getafix.quality;

import org.apache.druid.java.util.common.guava.BaseSequence;
import org.apache.druid.java.util.common.guava.Sequence;
import org.apache.druid.java.util.common.guava.Sequences;
import org.apache.druid.java.util.common.guava.Yielder;
import org.apache.druid.java.util.common.guava.Yielders;
import org.apache.druid.query.QueryInterruptedException;
import org.jboss.netty.channel.ChannelException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FailoverSequenceTest
{
  /** As Druid's client reports a refused connection when the answer is first read. */
  private static final RuntimeException REFUSED = new QueryInterruptedException(
      new ChannelException("Faulty channel in resource pool", new ConnectException("Connection refused")),
      "historical:8083"
  );

  /** {@code rows}, then {@code failure} when read past them. */
  private static Sequence<Integer> failingAfter(List<Integer> rows, RuntimeException failure)
  {
    return new BaseSequence<>(new BaseSequence.IteratorMaker<Integer, Iterator<Integer>>()
    {
      @Override
      public Iterator<Integer> make()
      {
        final Iterator<Integer> it = rows.iterator();
        return new Iterator<>()
        {
          @Override
          public boolean hasNext()
          {
            if (!it.hasNext()) {
              throw failure;
            }
            return true;
          }

          @Override
          public Integer next()
          {
            return it.next();
          }
        };
      }

      @Override
      public void cleanup(Iterator<Integer> iterFromMake)
      {
      }
    });
  }

  @Test
  void anUnreachableHistoricalBeforeTheFirstRowIsReplacedByTheFailover()
  {
    final AtomicInteger failovers = new AtomicInteger();
    final Sequence<Integer> sequence = new FailoverSequence<>(failingAfter(List.of(), REFUSED), failure -> {
      assertSame(REFUSED, failure);
      failovers.incrementAndGet();
      return Sequences.simple(List.of(1, 2, 3));
    });
    assertEquals(List.of(1, 2, 3), sequence.toList());
    assertEquals(6, sequence.accumulate(0, Integer::sum));
    assertEquals(2, failovers.get());
  }

  @Test
  void aYielderSwitchesToTheFailoverToo() throws IOException
  {
    final Sequence<Integer> sequence =
        new FailoverSequence<>(failingAfter(List.of(), REFUSED), failure -> Sequences.simple(List.of(7, 8)));
    final Yielder<Integer> yielder = Yielders.each(sequence);
    assertEquals(7, yielder.get());
    final Yielder<Integer> next = yielder.next(null);
    assertEquals(8, next.get());
    assertTrue(next.next(null).isDone());
    yielder.close();
  }

  @Test
  void aFailureAfterARowWentOnIsTheQuerys()
  {
    final AtomicInteger failovers = new AtomicInteger();
    final Sequence<Integer> sequence = new FailoverSequence<>(failingAfter(List.of(1), REFUSED), failure -> {
      failovers.incrementAndGet();
      return Sequences.simple(List.of(1, 2));
    });
    assertSame(REFUSED, assertThrows(RuntimeException.class, sequence::toList));
    assertSame(REFUSED, assertThrows(RuntimeException.class, () -> Yielders.each(sequence).next(null)));
    assertEquals(0, failovers.get(), "rows already passed on cannot be taken back");
  }

  @Test
  void anErrorTheHistoricalAnsweredWithIsNotFailedOver()
  {
    final RuntimeException error = new QueryInterruptedException(new IOException("Historical answered 500"), "h");
    final Sequence<Integer> sequence =
        new FailoverSequence<>(failingAfter(List.of(), error), failure -> Sequences.simple(List.of(1)));
    assertSame(error, assertThrows(RuntimeException.class, sequence::toList));
  }

  @Test
  void unreachableMeansNoConnectionWhereverInTheCauses()
  {
    assertTrue(Unreachable.isUnreachable(REFUSED));
    assertTrue(Unreachable.isUnreachable(new RuntimeException(new ChannelException("Channel disconnected"))));
    assertTrue(Unreachable.isUnreachable(new java.nio.channels.ClosedChannelException()));
    assertFalse(Unreachable.isUnreachable(new RuntimeException(new IOException("Query cancelled"))));
    assertFalse(Unreachable.isUnreachable(null));
  }
}
