package org.getafix.core.redundancy;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SubQuerySplitTest
{
  /** Connections enough for any split here. */
  private static final int SPARE = 10;
  /** A Historical whose budgeted sub-queries' shares of their time are not known yet. */
  private static final DoubleSupplier UNKNOWN = () -> Double.NaN;
  private final SubQuerySplit late = new SubQuerySplit(4, SubQuerySplit.Trigger.LATE);
  private final SubQuerySplit always = new SubQuerySplit(4, SubQuerySplit.Trigger.ALWAYS);

  @Test
  void aHistoricalExpectedInTimeIsNotSplit()
  {
    assertEquals(1, late.parts(10, () -> 100, UNKNOWN, 1000, SPARE), "expected at a tenth of the time left");
    assertEquals(1, late.parts(10, () -> 899, UNKNOWN, 1000, SPARE), "just under the late share");
  }

  @Test
  void aHistoricalExpectedToMissTheDeadlineIsSplitUpToTheMost()
  {
    assertEquals(4, late.parts(10, () -> 900, UNKNOWN, 1000, SPARE), "at the late share: a node cut off every time records the time it had");
    assertEquals(4, late.parts(10, () -> 5000, UNKNOWN, 1000, SPARE));
    assertEquals(3, late.parts(3, () -> 5000, UNKNOWN, 1000, SPARE), "no more parts than segments");
  }

  @Test
  void aHistoricalWhoseSubQueriesTookMostOfTheirTimeIsSplitWhateverItsMeanLatency()
  {
    // Cut at every deadline, but its sub-queries went out late behind others' on a busy Broker: the time each had,
    // so its mean latency, is well under the time a query now has.
    assertEquals(4, late.parts(10, () -> 250, () -> 1.0, 400, SPARE), "cut at every deadline");
    assertEquals(4, late.parts(10, () -> 250, () -> 0.9, 400, SPARE), "at the late share");
    assertEquals(1, late.parts(10, () -> 250, () -> 0.89, 400, SPARE), "just under the late share");
    assertEquals(1, late.parts(10, () -> Double.NaN, () -> 1.0, Double.POSITIVE_INFINITY, SPARE), "no deadline");
  }

  @Test
  void nothingIsSplitWithoutADeadlineASecondSegmentOrAKnownLatency()
  {
    assertEquals(1, late.parts(1, () -> 5000, UNKNOWN, 1000, SPARE), "one segment");
    assertEquals(1, late.parts(10, () -> 5000, UNKNOWN, Double.POSITIVE_INFINITY, SPARE), "no deadline");
    assertEquals(1, late.parts(10, () -> 5000, UNKNOWN, Double.NaN, SPARE), "no deadline");
    assertEquals(1, late.parts(10, () -> 5000, UNKNOWN, 0, SPARE), "no time left: the sub-query is late anyway");
    assertEquals(1, late.parts(10, () -> 5000, UNKNOWN, -5, SPARE), "no time left");
    assertEquals(1, late.parts(10, () -> Double.NaN, UNKNOWN, 1000, SPARE), "unknown latency");
    assertEquals(1, SubQuerySplit.OFF.parts(10, () -> 5000, UNKNOWN, 1000, SPARE), "off");
  }

  @Test
  void alwaysSplitsWhateverTheHistoricalsLatencyAndNeverAsksForIt()
  {
    final DoubleSupplier unasked = () -> {
      throw new AssertionError("the latency was asked for");
    };
    assertEquals(4, always.parts(10, unasked, unasked, 1000, SPARE), "a Historical in time is split too");
    assertEquals(3, always.parts(3, unasked, unasked, 1000, SPARE), "no more parts than segments");
    assertEquals(3, always.parts(10, unasked, unasked, 1000, 2), "one part on the sub-query's own connection, two on spare ones");
    assertEquals(1, always.parts(10, unasked, unasked, 1000, 0), "no spare connection: not split");
  }

  @Test
  void alwaysSplitsNothingWithoutADeadlineOrASecondSegment()
  {
    final DoubleSupplier fast = () -> 10;
    assertEquals(1, always.parts(1, fast, UNKNOWN, 1000, SPARE), "one segment");
    assertEquals(1, always.parts(10, fast, UNKNOWN, Double.POSITIVE_INFINITY, SPARE), "no deadline");
    assertEquals(1, always.parts(10, fast, UNKNOWN, Double.NaN, SPARE), "no deadline");
    assertEquals(1, always.parts(10, fast, UNKNOWN, 0, SPARE), "no time left");
    assertEquals(1, new SubQuerySplit(1, SubQuerySplit.Trigger.ALWAYS).parts(10, fast, UNKNOWN, 1000, SPARE), "one part at most");
  }

  @Test
  void partsTakeNoMoreThanHalfTheBrokersConnectionsToTheHistorical()
  {
    assertEquals(5, SubQuerySplit.spareConnections(0, 10));
    assertEquals(2, SubQuerySplit.spareConnections(3, 10));
    assertEquals(0, SubQuerySplit.spareConnections(5, 10), "half the pool is open already");
    assertEquals(0, SubQuerySplit.spareConnections(9, 10));
    assertEquals(0, SubQuerySplit.spareConnections(0, 1), "a pool of one is never shared");
    assertEquals(3, late.parts(10, () -> 5000, UNKNOWN, 1000, 2), "one part on the sub-query's own connection, two on spare ones");
    assertEquals(1, late.parts(10, () -> 5000, UNKNOWN, 1000, 0), "no spare connection: not split");
  }

  @Test
  void partsAreConsecutiveRunsOfNearlyEqualLength()
  {
    final List<Integer> ten = IntStream.range(0, 10).boxed().toList();
    assertEquals(
        List.of(List.of(0, 1, 2), List.of(3, 4, 5), List.of(6, 7), List.of(8, 9)),
        SubQuerySplit.partition(ten, 4)
    );
    assertEquals(List.of(ten), SubQuerySplit.partition(ten, 1));
    assertEquals(List.of(List.of(0), List.of(1)), SubQuerySplit.partition(List.of(0, 1), 5), "no empty parts");
    assertEquals(List.of(), SubQuerySplit.partition(List.of(), 3));
  }

  @Test
  void laterPartsRunAtLowerPrioritySoThatEveryQuerysFirstPartComesFirst()
  {
    assertEquals(0, SubQuerySplit.partPriority(0, 0), "the first part keeps the query's priority");
    assertEquals(-3, SubQuerySplit.partPriority(0, 3));
    assertEquals(7, SubQuerySplit.partPriority(10, 3));
    assertEquals(Integer.MIN_VALUE, SubQuerySplit.partPriority(Integer.MIN_VALUE + 1, 5), "no overflow");
  }

  @Test
  void badArgumentsAreRefused()
  {
    assertThrows(IllegalArgumentException.class, () -> new SubQuerySplit(0, SubQuerySplit.Trigger.LATE));
    assertThrows(NullPointerException.class, () -> new SubQuerySplit(4, null));
    assertThrows(IllegalArgumentException.class, () -> SubQuerySplit.partition(List.of(1), 0));
    assertThrows(IllegalArgumentException.class, () -> SubQuerySplit.partPriority(0, -1));
  }
}
