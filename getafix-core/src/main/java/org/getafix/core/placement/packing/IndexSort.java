package org.getafix.core.placement.packing;

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
  /** Narrower digits for short arrays, where clearing and summing 2^11 counters per pass would dominate. */
  private static final int SHORT_DIGIT_BITS = 8;
  private static final int SHORT_MAX = 1 << 11;
  /** Below this many elements the comparison sort is faster than a radix sort over all bits. */
  private static final int RADIX_SORT_MIN = 1 << 12;
  /** Below this many elements it is faster even than a radix sort that skips the position bits. */
  private static final int RANKED_RADIX_SORT_MIN = 1 << 7;

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
    sort(values, n, 0);
  }

  /**
   * As {@link #sort(long[], int)}, for values whose lowest {@code orderedBits} bits are distinct and ascending
   * already, as when each value's position is packed there: the radix passes then skip those bits (a stable sort by
   * the bits above keeps equal ones in position order), two passes of five or six at a million elements. That makes
   * the radix sort the faster one down to a hundred-odd elements (twice as fast as {@link Arrays#sort(long[])} at a
   * few thousand, the size of the balancer's per-node lists).
   */
  static void sort(long[] values, int n, int orderedBits)
  {
    if (n < (orderedBits > 0 ? RANKED_RADIX_SORT_MIN : RADIX_SORT_MIN)) {
      Arrays.sort(values, 0, n);
      return;
    }
    final int digitBits = n < SHORT_MAX ? SHORT_DIGIT_BITS : DIGIT_BITS;
    long any = 0;
    long all = -1;
    for (int i = 0; i < n; i++) {
      any |= values[i];
      all &= values[i];
    }
    final long varying = (any ^ all) >>> orderedBits << orderedBits;
    final int mask = (1 << digitBits) - 1;
    final int[] start = new int[mask + 1];
    long[] from = values;
    long[] to = new long[n];
    for (int shift = orderedBits; shift < Long.SIZE - Long.numberOfLeadingZeros(varying); shift += digitBits) {
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

  /** The key packed by {@link #withRank} for n elements. */
  static long key(long packed, int n)
  {
    return packed >>> positionBits(n);
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
    sort(packed, n, shift);
    final int[] original = Arrays.copyOf(perm, n);
    final long mask = (1L << shift) - 1;
    for (int i = 0; i < n; i++) {
      perm[i] = original[(int) (packed[i] & mask)];
    }
  }
}
