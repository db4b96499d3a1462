package org.getafix.core.placement;

import java.util.Arrays;

/**
 * Stable sorts of index arrays by a primitive key, fast at a million elements: each key is packed with its position
 * into one long and the longs are sorted with {@link Arrays#sort(long[])}. Comparator sorts over index arrays (and
 * fastutil's radix sorts on parallel arrays, whose small-bucket fallback is quadratic) spend seconds there in cache
 * misses. Stability is how ties are broken: callers lay the indices out in id order first, so equal keys stay in id
 * order.
 *
 * <p>The key has {@link #keyBits} bits, 63 less the bits of a position: 43 bits at a million elements. Doubles are
 * quantized to that width (keeping the exponent and the top mantissa bits: relative precision 2⁻³² at a million
 * elements), so loads equal to about nine digits count as ties; longs are clamped.
 */
final class IndexSort
{
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
    Arrays.sort(packed);
    final int[] original = Arrays.copyOf(perm, n);
    final long mask = (1L << shift) - 1;
    for (int i = 0; i < n; i++) {
      perm[i] = original[(int) (packed[i] & mask)];
    }
  }
}
