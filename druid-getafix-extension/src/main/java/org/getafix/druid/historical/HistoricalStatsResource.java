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

/**
 * The query counters of this Historical, pulled by the Coordinator every Getafix round. Reading them needs READ on
 * STATE, like Druid's own status endpoints.
 */
@Path("/druid/historical/v1/getafix")
public class HistoricalStatsResource
{
  private final QueryStatsCollector collector;
  private final DruidProcessingConfig processingConfig;
  private final CpuAllowance cpuAllowance = new CpuAllowance();

  @Inject
  public HistoricalStatsResource(QueryStatsCollector collector, DruidProcessingConfig processingConfig)
  {
    this.collector = collector;
    this.processingConfig = processingConfig;
  }

  @GET
  @Path("/stats")
  @Produces(MediaType.APPLICATION_JSON)
  @ResourceFilters(StateResourceFilter.class)
  public Response getStats()
  {
    return Response.ok(collector.report(processingConfig.getNumThreads(), cpuAllowance.cores())).build();
  }
}
