package org.getafix.core.routing;

import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * Randomness for routing. Production uses {@link #threadLocal()}; tests pass a seeded {@link java.util.Random}
 * (thread-safe) to make picks reproducible.
 */
public final class RoutingRandom
{
  private static final RandomGenerator THREAD_LOCAL = new ThreadLocalGenerator();

  private RoutingRandom()
  {
  }

  /**
   * A generator that always draws from the calling thread's {@link ThreadLocalRandom}. Holding
   * {@code ThreadLocalRandom.current()} in a field instead would be wrong: a thread that never called
   * {@code current()} itself would draw from an unseeded state.
   */
  public static RandomGenerator threadLocal()
  {
    return THREAD_LOCAL;
  }

  private static final class ThreadLocalGenerator implements RandomGenerator
  {
    @Override
    public long nextLong()
    {
      return ThreadLocalRandom.current().nextLong();
    }

    @Override
    public double nextDouble()
    {
      return ThreadLocalRandom.current().nextDouble();
    }

    @Override
    public int nextInt(int bound)
    {
      return ThreadLocalRandom.current().nextInt(bound);
    }
  }
}
