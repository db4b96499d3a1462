package org.getafix.core.quality.sampling;

import it.unimi.dsi.fastutil.HashCommon;
import org.getafix.core.contract.QualityKnobs;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Chooses which budgeted queries also get a mature re-execution (Ubora samples a fixed share of queries; 10% is
 * the rate below which its admission control stayed reliable, Table II). Two deterministic modes:
 * <ul>
 *   <li>{@link #byQueryId}: a mixed hash of the query id decides, so every Broker (and a retry) agrees on a
 *   query;</li>
 *   <li>{@link #seeded}: a SplitMix-style sequence from a seed, for queries without a stable id and for tests.</li>
 * </ul>
 * Immutable configuration; thread-safe and lock-free.
 */
public final class MatureSampler
{
  private final double rate;
  private final AtomicLong sequence;

  private MatureSampler(double rate, long seed)
  {
    QualityKnobs.MATURE_SAMPLE_RATE.checkAs("mature sampling rate", rate);
    this.rate = rate;
    this.sequence = new AtomicLong(seed);
  }

  public static MatureSampler byQueryId(double rate)
  {
    return new MatureSampler(rate, 0);
  }

  public static MatureSampler seeded(double rate, long seed)
  {
    return new MatureSampler(rate, seed);
  }

  public double rate()
  {
    return rate;
  }

  /** Whether the query with this id is sampled; a null id is not. */
  public boolean sample(String queryId)
  {
    if (queryId == null) {
      return false;
    }
    long hash = 0;
    for (byte b : queryId.getBytes(StandardCharsets.UTF_8)) {
      hash = 31 * hash + b;
    }
    return below(HashCommon.mix(hash));
  }

  /** The next decision of the seeded sequence. */
  public boolean sampleNext()
  {
    return below(HashCommon.mix(sequence.addAndGet(0x9E3779B97F4A7C15L)));
  }

  private boolean below(long mixed)
  {
    // The top 53 bits as a uniform double in [0, 1).
    return (mixed >>> 11) * 0x1.0p-53 < rate;
  }
}
