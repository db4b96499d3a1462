package org.getafix.core.placement;

import java.util.Arrays;

/**
 * Stable sorts of index arrays by a primitive key, fast at a million elements: each key is packed with its position
 * (or another tie-breaking rank) into one long and the longs are sorted with {@link #sort}. Comparator sorts over
 * index arrays (and fastutil's radix sorts on parallel arrays, whose small-bucket fallback is quadratic) spend
 * seconds there in cache misses. Stability is how ties are broken: callers lay the indices out in id order first,
 * so equal keys stay in id order.
 *
 * <p>The key has {@link #keyBits} bits, 63 less the bits of a position: 43 bits at a million elements. Doubles are
 * quantized to that width (keeping the exponent and the top mantissa bits: relative precision 2⁻³² at a million
 * elements), so loads equal to about nine digits count as ties; longs are clamped.
 */
final class IndexSort
{
  private static final int DIGIT_BITS = 11;
  private static final int RADIX_SORT_MIN = 1 << 12;

  private IndexSort()
  {
  }

  /** Bits of a position among n elements. */
  private static int positionBits(int n)
  {
    return Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, n - 1)));
  }

  /** Bits a key may use when sorting n elements. */
  static int keyBits(int n)
  {
    return 63 - positionBits(n);
  }

  /** A key ordering non-negative doubles ascending, for sorting n elements. */
  static long ascending(double nonNegative, int n)
  {
    return Double.doubleToLongBits(nonNegative + 0.0) >>> positionBits(n);
  }

  /** A key ordering non-negative doubles descending, for sorting n elements. */
  static long descending(double nonNegative, int n)
  {
    return ((1L << keyBits(n)) - 1) - ascending(nonNegative, n);
  }

  /** A key ordering non-negative longs ascending, for sorting n elements; values beyond the key width tie. */
  static long clamped(long nonNegative, int n)
  {
    return Math.min(nonNegative, (1L << keyBits(n)) - 1);
  }

  /**
   * Sorts the non-negative {@code values[0, n)} ascending: a least-significant-digit radix sort, {@value #DIGIT_BITS}
   * bits per pass and only over the bits in which the values differ (five passes for the 52-bit packed keys of a
   * million elements). At a million elements it takes a third of the time of {@link Arrays#sort(long[])}, and the
   * planner sorts a million elements several times a round; below a few thousand the comparison sort is faster.
   */
  static void sort(long[] values, int n)
  {
    if (n < RADIX_SORT_MIN) {
      Arrays.sort(values, 0, n);
      return;
    }
    long any = 0;
    long all = -1;
    for (int i = 0; i < n; i++) {
      any |= values[i];
      all &= values[i];
    }
    final long varying = any ^ all;
    final int mask = (1 << DIGIT_BITS) - 1;
    final int[] start = new int[mask + 1];
    long[] from = values;
    long[] to = new long[n];
    for (int shift = 0; shift < Long.SIZE - Long.numberOfLeadingZeros(varying); shift += DIGIT_BITS) {
      if (((varying >>> shift) & mask) == 0) {
        continue;
      }
      Arrays.fill(start, 0);
      for (int i = 0; i < n; i++) {
        start[(int) (from[i] >>> shift) & mask]++;
      }
      int sum = 0;
      for (int d = 0; d <= mask; d++) {
        final int count = start[d];
        start[d] = sum;
        sum += count;
      }
      for (int i = 0; i < n; i++) {
        final long value = from[i];
        to[start[(int) (value >>> shift) & mask]++] = value;
      }
      final long[] sorted = to;
      to = from;
      from = sorted;
    }
    if (from != values) {
      System.arraycopy(from, 0, values, 0, n);
    }
  }

  /**
   * Packs a key made by the helpers above for n elements with a rank in [0, n) into one long: sorting such longs
   * orders by key, then by rank. {@link #rank} unpacks the rank.
   */
  static long withRank(long key, int rank, int n)
  {
    return (key << positionBits(n)) | rank;
  }

  /** The rank packed by {@link #withRank} for n elements. */
  static int rank(long packed, int n)
  {
    return (int) (packed & ((1L << positionBits(n)) - 1));
  }

  /**
   * Sorts {@code perm[0, n)} by {@code key[i]}, the key of {@code perm[i]}, ascending and stably. Keys must be in
   * [0, 2^keyBits(n)), as made by the helpers above.
   */
  static void sortStable(int[] perm, int n, long[] key)
  {
    final int shift = positionBits(n);
    final long[] packed = new long[n];
    for (int i = 0; i < n; i++) {
      packed[i] = (key[i] << shift) | i;
    }
    sort(packed, n);
    final int[] original = Arrays.copyOf(perm, n);
    final long mask = (1L << shift) - 1;
    for (int i = 0; i < n; i++) {
      perm[i] = original[(int) (packed[i] & mask)];
    }
  }
}
