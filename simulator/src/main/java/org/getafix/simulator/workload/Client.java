package org.getafix.simulator.workload;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A workload client with its own broker (thesis §4.1): a Poisson stream at a rate picked uniformly in
 * [min, max] queries/s, and its own query mix, the base weights each scaled by a factor in [0.5, 1.5].
 */
public final class Client
{
  private final int index;
  private final double queriesPerSecond;
  private final List<QueryType> types;
  private final double[] cumulativeMix;
  private final RandomGenerator random;

  public Client(int index, double minQps, double maxQps, List<QueryType> types, RandomGenerator random)
  {
    this.index = index;
    this.random = random;
    this.queriesPerSecond = minQps + (maxQps - minQps) * random.nextDouble();
    this.types = List.copyOf(types);
    this.cumulativeMix = new double[types.size()];
    double sum = 0;
    for (int i = 0; i < types.size(); i++) {
      sum += types.get(i).weight() * (0.5 + random.nextDouble());
      cumulativeMix[i] = sum;
    }
  }

  public int index()
  {
    return index;
  }

  /** This client's random stream: arrivals, query types, intervals and costs all draw from it. */
  public RandomGenerator random()
  {
    return random;
  }

  /** Seconds to the next query: exponential with this client's rate. */
  public double nextInterArrival()
  {
    return nextInterArrival(1);
  }

  /** Seconds to the next query at {@code rateFactor} times this client's rate (a load sweep or step). */
  public double nextInterArrival(double rateFactor)
  {
    return -Math.log(1 - random.nextDouble()) / (queriesPerSecond * rateFactor);
  }

  public double queriesPerSecond()
  {
    return queriesPerSecond;
  }

  public QueryType nextType()
  {
    final double u = random.nextDouble() * cumulativeMix[cumulativeMix.length - 1];
    for (int i = 0; i < cumulativeMix.length; i++) {
      if (u < cumulativeMix[i]) {
        return types.get(i);
      }
    }
    return types.get(types.size() - 1);
  }
}
