package org.getafix.quality;

import com.google.inject.Inject;
import com.sun.jersey.spi.container.ResourceFilters;
import org.apache.druid.server.http.security.StateResourceFilter;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

/**
 * {@code GET /druid/broker/v1/getafix/quality} (READ on STATE): the Broker's budgeted-query figures, its mature-run
 * counters and memo, and the latest measured answer qualities.
 */
@Path("/druid/broker/v1/getafix/quality")
@ResourceFilters(StateResourceFilter.class)
public class QualityResource
{
  private final MatureRuns matureRuns;

  @Inject
  public QualityResource(MatureRuns matureRuns)
  {
    this.matureRuns = matureRuns;
  }

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  public Response getQuality()
  {
    return Response.ok(matureRuns.state()).build();
  }
}
