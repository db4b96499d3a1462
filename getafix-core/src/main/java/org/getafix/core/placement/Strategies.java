package org.getafix.core.placement;

/**
 * The placement strategies: Getafix-H and the baselines it is compared with (thesis §4). All are stateless,
 * deterministic and thread-safe; each call to {@link PlacementStrategy#plan} is one round. By name, with their
 * traits: {@link PlacementStrategies}.
 */
public final class Strategies
{
  public static final int DEFAULT_DRUID_REPLICATION_FACTOR = 2;

  private static final PlacementStrategy GETAFIX_H = new GetafixStrategy("getafix-h", true, true, SplitPolicy.EVEN);
  private static final PlacementStrategy GETAFIX_B = new GetafixStrategy("getafix-b", false, false, SplitPolicy.EVEN);
  private static final PlacementStrategy AUTO_TIERING_ONLY =
      new GetafixStrategy("auto-tiering-only", true, false, SplitPolicy.EVEN);
  private static final PlacementStrategy GETAFIX_H_THESIS_SPLIT =
      new GetafixStrategy("getafix-h-thesis-split", true, true, SplitPolicy.THESIS);
  private static final PlacementStrategy GETAFIX_H_THESIS =
      new GetafixStrategy("getafix-h-thesis", true, true, SplitPolicy.THESIS, false);
  private static final PlacementStrategy GETAFIX_B_THESIS_SPLIT =
      new GetafixStrategy("getafix-b-thesis-split", false, false, SplitPolicy.THESIS);
  private static final PlacementStrategy SCARLETT = new ScarlettStrategy(DEFAULT_DRUID_REPLICATION_FACTOR);

  private Strategies()
  {
  }

  /**
   * Capacity-aware ModifiedBestFit (Algorithm 3.1), replica floor, segment balancer with the constraints' γ;
   * segments split evenly ({@link SplitPolicy#EVEN}).
   */
  public static PlacementStrategy getafixH()
  {
    return GETAFIX_H;
  }

  /**
   * Getafix (Algorithm 2.1): the same ModifiedBestFit with equal node capacities and the replica floor, no
   * balancer; segments split evenly, as in {@link #getafixH()}, so that the two differ only where the thesis
   * says.
   */
  public static PlacementStrategy getafixB()
  {
    return GETAFIX_B;
  }

  /** {@link #getafixH()} or {@link #getafixB()} with the given way of splitting segments. */
  /** Getafix-H as the thesis publishes it: its split, and no hot floor whatever the constraints say. */
  public static PlacementStrategy getafixHThesis()
  {
    return GETAFIX_H_THESIS;
  }

  public static PlacementStrategy getafix(boolean capacityAware, SplitPolicy split)
  {
    if (split == SplitPolicy.THESIS) {
      return capacityAware ? GETAFIX_H_THESIS_SPLIT : GETAFIX_B_THESIS_SPLIT;
    }
    return capacityAware ? GETAFIX_H : GETAFIX_B;
  }

  /** Capacity-aware ModifiedBestFit and replica floor without the balancer (§4.3.1's "Auto-tiering Only"). */
  public static PlacementStrategy autoTieringOnly()
  {
    return AUTO_TIERING_ONLY;
  }

  /**
   * Scarlett: one replica per concurrent access (passed as the segment load), dealt round-robin, never fewer than
   * Druid's default replication factor {@value #DEFAULT_DRUID_REPLICATION_FACTOR}: Scarlett (EuroSys'11) raises
   * popular files above the file system's default replication and never goes below it, and Getafix is compared
   * with Druid, so Druid's default is the fair base. See {@link #scarlett(int)}.
   */
  public static PlacementStrategy scarlett()
  {
    return SCARLETT;
  }

  /**
   * Scarlett over another base replication, e.g. 3 for HDFS's default as in the paper: a segment gets
   * max(baseReplication, ⌈concurrent accesses⌉) replicas, at most maxReplicas and the node count, at least
   * minReplicas.
   *
   * @throws IllegalArgumentException if baseReplication is below 1
   */
  public static PlacementStrategy scarlett(int baseReplication)
  {
    return new ScarlettStrategy(baseReplication);
  }

  /** Druid's default: {@code replicationFactor} replicas of every segment, even segment counts, within memory. */
  public static PlacementStrategy druidDefault(int replicationFactor)
  {
    return new DruidDefaultStrategy(replicationFactor);
  }

  /** Druid's default with its usual replication factor of 2. */
  public static PlacementStrategy druidDefault()
  {
    return druidDefault(DEFAULT_DRUID_REPLICATION_FACTOR);
  }
}
