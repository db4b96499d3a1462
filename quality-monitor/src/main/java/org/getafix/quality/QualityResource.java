package org.getafix.quality;

import com.google.inject.Inject;
import com.sun.jersey.spi.container.ResourceFilters;
import org.apache.druid.server.http.security.StateResourceFilter;
import org.getafix.core.quality.control.DeadlineReserve;
import org.getafix.core.wire.Coverage;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /druid/broker/v1/getafix/quality} (READ on STATE): the quality monitor's configuration, its figures of
 * budgeted queries, mature runs and replays with the latest measured answer qualities, the memo, the replay queue, the
 * budget controllers' and the admission controller's state, the quality profiles learned from mature runs (and the
 * file they were restored from at start), and the recent time from a deadline to the answer's last byte that sets how
 * much of a budget is kept in reserve; and, under {@code /coverage}, the coverage of a recent budgeted answer by its id.
 */
@Path("/druid/broker/v1/getafix/quality")
@ResourceFilters(StateResourceFilter.class)
public class QualityResource
{
  private final QualityConfig config;
  private final QualityMetrics metrics;
  private final MatureRuns matureRuns;
  private final Replays replays;
  private final BudgetControl budgetControl;
  private final BudgetSplit budgetSplit;
  private final Admission admission;
  private final QualityProfiles profiles;
  private final DeadlineReserve deadlineReserve;
  private final RecentCoverage recentCoverage;

  @Inject
  public QualityResource(
      QualityConfig config,
      QualityMetrics metrics,
      MatureRuns matureRuns,
      Replays replays,
      BudgetControl budgetControl,
      BudgetSplit budgetSplit,
      Admission admission,
      QualityProfiles profiles,
      DeadlineReserve deadlineReserve,
      RecentCoverage recentCoverage
  )
  {
    this.config = config;
    this.metrics = metrics;
    this.matureRuns = matureRuns;
    this.replays = replays;
    this.budgetControl = budgetControl;
    this.budgetSplit = budgetSplit;
    this.admission = admission;
    this.profiles = profiles;
    this.deadlineReserve = deadlineReserve;
    this.recentCoverage = recentCoverage;
  }

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  public Response getQuality()
  {
    return Response.ok(state()).build();
  }

  /**
   * {@code GET .../coverage?queryId=} or {@code ?sqlQueryId=}: the coverage of a recent budgeted answer, for clients
   * that cannot read the response-context header; 404 if the Broker has none for it, 400 unless exactly one id is given.
   */
  @GET
  @Path("/coverage")
  @Produces(MediaType.APPLICATION_JSON)
  public Response getCoverage(@QueryParam("queryId") String queryId, @QueryParam("sqlQueryId") String sqlQueryId)
  {
    if ((queryId == null) == (sqlQueryId == null)) {
      return Response.status(Response.Status.BAD_REQUEST)
                     .entity(Map.of("error", "give exactly one of queryId and sqlQueryId"))
                     .build();
    }
    final Coverage coverage = queryId != null ? recentCoverage.ofQuery(queryId) : recentCoverage.ofSqlQuery(sqlQueryId);
    if (coverage == null) {
      return Response.status(Response.Status.NOT_FOUND)
                     .entity(Map.of("error", "no recent budgeted answer of that id on this Broker"))
                     .build();
    }
    return Response.ok(coverage).build();
  }

  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    state.put("config", config);
    state.putAll(metrics.state());
    state.putAll(matureRuns.state());
    state.putAll(replays.state());
    state.put("budgetControl", budgetControl.state());
    state.put("budgetSplitDemandMs", budgetSplit.demands());
    state.put("admission", admission.state());
    state.put("qualityProfiles", profiles.state());
    // Null (JSON null) unless profiles were read back from profileFile at start.
    state.put("qualityProfilesRestoredFrom", profiles.restoredFrom());
    // Null (JSON null) until a query has waited until its deadline.
    final double afterDeadline = deadlineReserve.afterDeadlineMillis();
    state.put("afterDeadlineMs", Double.isNaN(afterDeadline) ? null : afterDeadline);
    return state;
  }
}
