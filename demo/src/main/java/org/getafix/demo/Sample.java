package org.getafix.demo;

import java.util.Map;
import java.util.Set;

/**
 * One look at the cluster during a phase, about once per Getafix round.
 *
 * @param seconds     since the phase started
 * @param holders     segment id → Historicals ({@code host:port}) serving it
 * @param cpuMicros   Historical → query CPU time so far (a monotonic counter of the Historical's getafix stats)
 * @param scans       Historical → segment scans so far (monotonic)
 * @param tiers       Historical → tier Getafix measured (HOT, WARM, COLD); empty while Getafix is disabled
 * @param quotas      Historical → CPU cap in cores at this moment
 */
public record Sample(
    double seconds,
    Map<String, Set<String>> holders,
    Map<String, Long> cpuMicros,
    Map<String, Long> scans,
    Map<String, String> tiers,
    Map<String, Double> quotas
)
{
  public Sample
  {
    holders = Map.copyOf(holders);
    cpuMicros = Map.copyOf(cpuMicros);
    scans = Map.copyOf(scans);
    tiers = Map.copyOf(tiers);
    quotas = Map.copyOf(quotas);
  }
}
