package org.getafix.core.placement.packing;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

class IndexSortTest
{
  @Test
  void radixSortMatchesArraysSort()
  {
    final SplittableRandom random = new SplittableRandom(7);
    for (int n : new int[]{0, 1, 100, 5_000, 100_000}) {
      for (long bound : new long[]{1L << 12, 1L << 40, Long.MAX_VALUE}) {
        final long[] values = random.longs(n, 0, bound).toArray();
        final long[] expected = values.clone();
        Arrays.sort(expected);
        IndexSort.sort(values, n);
        assertArrayEquals(expected, values, "n=" + n + ", bound=" + bound);
      }
    }
  }

  @Test
  void skippingPositionBitsGivesTheFullSort()
  {
    // Keys with many ties (few distinct values) packed above their positions: the passes over the position bits
    // are skipped, and ties must still come out in position order.
    final SplittableRandom random = new SplittableRandom(11);
    for (int n : new int[]{3, 127, 128, 1_000, 2_048, 4_095, 4_096, 70_000}) {
      for (long keys : new long[]{3, 1L << 20, 1L << 32}) {
        final long[] values = new long[n];
        for (int i = 0; i < n; i++) {
          values[i] = (random.nextLong(keys) << 31) | i;
        }
        final long[] expected = values.clone();
        Arrays.sort(expected);
        IndexSort.sort(values, n, 31);
        assertArrayEquals(expected, values, "n=" + n + ", keys=" + keys);
      }
    }
  }

  @Test
  void sortStableKeepsTiesInPermutationOrder()
  {
    final SplittableRandom random = new SplittableRandom(13);
    final int n = 50_000;
    final int[] perm = random.ints(n, 0, 1_000_000).toArray();
    final long[] key = random.longs(n, 0, 50).toArray();
    final Integer[] expected = new Integer[n];
    for (int i = 0; i < n; i++) {
      expected[i] = i;
    }
    Arrays.sort(expected, (x, y) -> Long.compare(key[x], key[y]));
    final int[] sorted = perm.clone();
    IndexSort.sortStable(sorted, n, key);
    for (int i = 0; i < n; i++) {
      if (sorted[i] != perm[expected[i]]) {
        throw new AssertionError("position " + i + ": " + sorted[i] + " != " + perm[expected[i]]);
      }
    }
  }
}
