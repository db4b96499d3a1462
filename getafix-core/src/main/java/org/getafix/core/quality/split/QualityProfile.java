package org.getafix.core.quality.split;

import java.util.Arrays;

/**
 * A request quality function of the budget paper (§2): answer quality as a function of the completed fraction of
 * the work (here, of the query's segments), non-decreasing and concave, as piecewise-linear knots from (0, q₀) to
 * (1, q_m). Immutable and thread-safe.
 */
public final class QualityProfile
{
  /** No knowledge yet: quality proportional to the completed fraction. */
  public static final QualityProfile LINEAR = new QualityProfile(new double[]{0, 1}, new double[]{0, 1});

  private static final double TOLERANCE = 1e-9;

  private final double[] fractions;
  private final double[] qualities;

  private QualityProfile(double[] fractions, double[] qualities)
  {
    this.fractions = fractions;
    this.qualities = qualities;
  }

  /**
   * @param fractions strictly increasing, from 0 to 1
   * @param qualities in [0, 1], non-decreasing, and concave (slopes non-increasing)
   * @throws IllegalArgumentException when the knots are not such a function
   */
  public static QualityProfile of(double[] fractions, double[] qualities)
  {
    if (fractions == null || qualities == null || fractions.length != qualities.length || fractions.length < 2) {
      throw new IllegalArgumentException("a quality profile needs >= 2 knots with one quality each");
    }
    if (fractions[0] != 0 || fractions[fractions.length - 1] != 1) {
      throw new IllegalArgumentException("quality profile knots must run from fraction 0 to fraction 1, got "
                                         + Arrays.toString(fractions));
    }
    double previousSlope = Double.POSITIVE_INFINITY;
    for (int i = 0; i < fractions.length; i++) {
      if (!(qualities[i] >= 0 && qualities[i] <= 1)) {
        throw new IllegalArgumentException("quality must be in [0, 1], got [" + qualities[i] + "]");
      }
      if (i == 0) {
        continue;
      }
      if (!(fractions[i] > fractions[i - 1])) {
        throw new IllegalArgumentException("fractions must be strictly increasing, got " + Arrays.toString(fractions));
      }
      final double slope = (qualities[i] - qualities[i - 1]) / (fractions[i] - fractions[i - 1]);
      if (slope < -TOLERANCE) {
        throw new IllegalArgumentException("quality must not fall with more work, got " + Arrays.toString(qualities));
      }
      if (slope > previousSlope + TOLERANCE) {
        throw new IllegalArgumentException("quality profile must be concave, got " + Arrays.toString(qualities));
      }
      previousSlope = slope;
    }
    return new QualityProfile(fractions.clone(), qualities.clone());
  }

  /** The knots' completed fractions, from 0 to 1. */
  public double[] fractions()
  {
    return fractions.clone();
  }

  /** The knots' qualities, one per fraction. */
  public double[] qualities()
  {
    return qualities.clone();
  }

  /** Quality at completed fraction {@code fraction} (clamped to [0, 1]; NaN reads as 0). */
  public double quality(double fraction)
  {
    final double x = Double.isNaN(fraction) ? 0 : Math.max(0, Math.min(1, fraction));
    int i = Arrays.binarySearch(fractions, x);
    if (i >= 0) {
      return qualities[i];
    }
    i = -i - 1;
    final double t = (x - fractions[i - 1]) / (fractions[i] - fractions[i - 1]);
    return qualities[i - 1] + t * (qualities[i] - qualities[i - 1]);
  }

  int segments()
  {
    return fractions.length - 1;
  }

  double segmentWidth(int segment)
  {
    return fractions[segment + 1] - fractions[segment];
  }

  double segmentGain(int segment)
  {
    return qualities[segment + 1] - qualities[segment];
  }

  @Override
  public String toString()
  {
    return "QualityProfile{fractions=" + Arrays.toString(fractions) + ", qualities=" + Arrays.toString(qualities) + "}";
  }
}
