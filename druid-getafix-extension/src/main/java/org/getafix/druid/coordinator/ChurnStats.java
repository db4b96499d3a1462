package org.getafix.druid.coordinator;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The plan-driven loads and drops one Coordinator run issued, like Druid's {@code CoordinatorRunStats}: a fresh one
 * per run (see {@link CoordinatorRun}), written on the run's thread and read by the planner's round and the status
 * endpoint, hence atomic.
 */
public final class ChurnStats
{
  private final AtomicLong loads = new AtomicLong();
  private final AtomicLong drops = new AtomicLong();

  void recordLoad()
  {
    loads.incrementAndGet();
  }

  void recordDrop()
  {
    drops.incrementAndGet();
  }

  public long loads()
  {
    return loads.get();
  }

  public long drops()
  {
    return drops.get();
  }
}
