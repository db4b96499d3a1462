package org.getafix.quality;

import com.google.inject.Inject;
import com.sun.jersey.spi.container.ResourceFilters;
import org.apache.druid.server.http.security.StateResourceFilter;
import org.getafix.core.quality.control.DeadlineReserve;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /druid/broker/v1/getafix/quality} (READ on STATE): the quality monitor's configuration, its figures of
 * budgeted queries and mature runs with the latest measured answer qualities, the memo, the budget controllers'
 * and the admission controller's state, the quality profiles learned from mature runs, and the recent time from a
 * deadline to the answer's last byte that sets how much of a budget is kept in reserve.
 */
@Path("/druid/broker/v1/getafix/quality")
@ResourceFilters(StateResourceFilter.class)
public class QualityResource
{
  private final QualityConfig config;
  private final QualityMetrics metrics;
  private final MatureRuns matureRuns;
  private final BudgetControl budgetControl;
  private final Admission admission;
  private final QualityProfiles profiles;
  private final DeadlineReserve deadlineReserve;

  @Inject
  public QualityResource(
      QualityConfig config,
      QualityMetrics metrics,
      MatureRuns matureRuns,
      BudgetControl budgetControl,
      Admission admission,
      QualityProfiles profiles,
      DeadlineReserve deadlineReserve
  )
  {
    this.config = config;
    this.metrics = metrics;
    this.matureRuns = matureRuns;
    this.budgetControl = budgetControl;
    this.admission = admission;
    this.profiles = profiles;
    this.deadlineReserve = deadlineReserve;
  }

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  public Response getQuality()
  {
    return Response.ok(state()).build();
  }

  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    state.put("config", config);
    state.putAll(metrics.state());
    state.putAll(matureRuns.state());
    state.put("budgetControl", budgetControl.state());
    state.put("admission", admission.state());
    state.put("qualityProfiles", profiles.state());
    // Null (JSON null) until a query has waited until its deadline.
    final double afterDeadline = deadlineReserve.afterDeadlineMillis();
    state.put("afterDeadlineMs", Double.isNaN(afterDeadline) ? null : afterDeadline);
    return state;
  }
}
