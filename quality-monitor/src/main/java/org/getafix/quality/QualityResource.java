package org.getafix.quality;

import com.google.inject.Inject;
import com.sun.jersey.spi.container.ResourceFilters;
import org.apache.druid.server.http.security.StateResourceFilter;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.util.Map;

/**
 * {@code GET /druid/broker/v1/getafix/quality} (READ on STATE): the Broker's budgeted-query figures, its mature-run
 * counters and memo, the latest measured answer qualities, the budget controllers' and the admission controller's
 * state.
 */
@Path("/druid/broker/v1/getafix/quality")
@ResourceFilters(StateResourceFilter.class)
public class QualityResource
{
  private final MatureRuns matureRuns;
  private final BudgetControl budgetControl;
  private final Admission admission;

  @Inject
  public QualityResource(MatureRuns matureRuns, BudgetControl budgetControl, Admission admission)
  {
    this.matureRuns = matureRuns;
    this.budgetControl = budgetControl;
    this.admission = admission;
  }

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  public Response getQuality()
  {
    final Map<String, Object> state = matureRuns.state();
    state.put("budgetControl", budgetControl.state());
    state.put("admission", admission.state());
    return Response.ok(state).build();
  }
}
