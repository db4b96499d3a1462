package org.getafix.druid.historical;

import com.google.inject.Inject;
import com.sun.jersey.spi.container.ResourceFilters;
import org.apache.druid.query.DruidProcessingConfig;
import org.apache.druid.server.http.security.StateResourceFilter;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The query counters of this Historical, pulled by the Coordinator every Getafix round. Reading them needs READ on
 * STATE, like Druid's own status endpoints.
 */
@Path("/druid/historical/v1/getafix")
public class HistoricalStatsResource
{
  private final QueryStatsCollector collector;
  private final DruidProcessingConfig processingConfig;
  private final StallMeter stallMeter;
  private final CpuAllowance cpuAllowance = new CpuAllowance();

  @Inject
  public HistoricalStatsResource(
      QueryStatsCollector collector,
      DruidProcessingConfig processingConfig,
      StallMeter stallMeter
  )
  {
    this.collector = collector;
    this.processingConfig = processingConfig;
    this.stallMeter = stallMeter;
  }

  @GET
  @Path("/stats")
  @Produces(MediaType.APPLICATION_JSON)
  @ResourceFilters(StateResourceFilter.class)
  public Response getStats()
  {
    return Response.ok(
        collector.report(
            processingConfig.getNumThreads(),
            cpuAllowance.cores(),
            processCpuMicros(),
            stallMeter.stalledMillis()
        )
    ).build();
  }

  /**
   * CPU time of this JVM so far, or 0 where the platform's bean cannot tell. The Coordinator needs it besides
   * {@code query/cpu/time}, which counts segment scans only: on the live test cluster scans were 34–58% of
   * what a Historical burnt, the rest going on per query work (HTTP, merging, serialising) that a node pays for
   * every query it is asked, however small its scans.
   */
  private static long processCpuMicros()
  {
    final OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
    if (bean instanceof com.sun.management.OperatingSystemMXBean os) {
      final long nanos = os.getProcessCpuTime();
      return nanos > 0 ? nanos / 1000 : 0;
    }
    return 0;
  }
}
