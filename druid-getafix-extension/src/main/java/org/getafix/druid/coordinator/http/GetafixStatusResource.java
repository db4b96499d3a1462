package org.getafix.druid.coordinator.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Inject;
import com.sun.jersey.spi.container.ResourceFilters;
import org.apache.druid.guice.annotations.Json;
import org.apache.druid.server.http.security.StateResourceFilter;
import org.getafix.core.realise.Rollback;
import org.getafix.core.wire.RoutingTableMessage;
import org.getafix.druid.coordinator.load.GetafixRunHandoff;
import org.getafix.druid.coordinator.plan.GetafixPlanHolder;
import org.getafix.druid.coordinator.plan.Mode;
import org.getafix.druid.coordinator.plan.PlanSnapshot;

import javax.ws.rs.GET;
import javax.ws.rs.HeaderParam;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.core.EntityTag;
import javax.ws.rs.core.HttpHeaders;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Read-only views of the current Getafix round (READ on STATE), all under {@code /druid/coordinator/v1/getafix}.
 * Druid's Coordinator redirects these paths to the leader, which is the only Coordinator that plans.
 */
@Path("/druid/coordinator/v1/getafix")
@ResourceFilters(StateResourceFilter.class)
public class GetafixStatusResource
{
  private final GetafixPlanHolder holder;
  private final GetafixRunHandoff handoff;
  private final ObjectMapper jsonMapper;
  private volatile RenderedRouting rendered = new RenderedRouting(-1, null, null);

  @Inject
  public GetafixStatusResource(GetafixPlanHolder holder, GetafixRunHandoff handoff, @Json ObjectMapper jsonMapper)
  {
    this.holder = holder;
    this.handoff = handoff;
    this.jsonMapper = jsonMapper;
  }

  /**
   * Mode, why it is not ACTIVE, config in force, plan size, the churn issued so far, the Historical-rounds whose
   * statistics were missing or rejected so far, and, while rolling back, where the rollback stands after the last
   * Coordinator run ({@code phase} LOADING, DROPPING or DONE).
   */
  @GET
  @Path("/status")
  @Produces(MediaType.APPLICATION_JSON)
  public Response getStatus()
  {
    final PlanSnapshot s = holder.snapshot();
    final Map<String, Object> status = new LinkedHashMap<>();
    status.put("round", s.round());
    status.put("version", s.version());
    status.put("generatedAt", s.generatedAt().toString());
    status.put("mode", s.mode());
    status.put("problems", s.problems());
    status.put("tier", s.tier());
    status.put("config", s.config());
    status.put("balancerStrategyInstalled", handoff.isStrategyInstalled());
    status.put("plannedSegments", s.shares().size());
    status.put("plannedReplicas", s.shares().values().stream().mapToInt(Map::size).sum());
    status.put("unplacedSegments", s.unplaced().size());
    status.put("unstableHistoricals", new TreeSet<>(s.unstable()));
    status.put("loadsIssued", handoff.loadsIssued());
    status.put("loadBytesIssued", handoff.loadBytesIssued());
    status.put("dropsIssued", handoff.dropsIssued());
    final Rollback.Progress rollback = handoff.rollbackProgress();
    if (s.mode() == Mode.ROLLING_BACK && rollback != null) {
      status.put("rollback", Map.of(
          "phase", rollback.phase(),
          "belowStock", rollback.belowStock(),
          "aboveStock", rollback.aboveStock(),
          "segments", rollback.segments()
      ));
    }
    status.put("statsMissing", holder.statsMissing());
    status.put("statsRejected", holder.statsRejected());
    return Response.ok(status).build();
  }

  /** The plan: segment → Historical → share, and what could not be placed. Shown in every mode, dry run included. */
  @GET
  @Path("/plan")
  @Produces(MediaType.APPLICATION_JSON)
  public Response getPlan()
  {
    final PlanSnapshot s = holder.snapshot();
    final Map<String, Object> plan = new LinkedHashMap<>();
    plan.put("round", s.round());
    plan.put("version", s.version());
    plan.put("generatedAt", s.generatedAt().toString());
    plan.put("mode", s.mode());
    plan.put("segments", s.shares());
    plan.put("unplaced", s.unplaced());
    return Response.ok(plan).build();
  }

  @GET
  @Path("/tiers")
  @Produces(MediaType.APPLICATION_JSON)
  public Response getTiers()
  {
    return Response.ok(holder.snapshot().nodeTiers()).build();
  }

  @GET
  @Path("/popularity")
  @Produces(MediaType.APPLICATION_JSON)
  public Response getPopularity()
  {
    return Response.ok(holder.snapshot().popularity()).build();
  }

  @GET
  @Path("/capacities")
  @Produces(MediaType.APPLICATION_JSON)
  public Response getCapacities()
  {
    return Response.ok(holder.snapshot().capacities()).build();
  }

  /**
   * The routing table Brokers poll, in the format of {@link RoutingTableMessage}.
   * Only an ACTIVE plan is served (otherwise the segments are empty and Brokers route as Druid does), because in
   * dry run or warm-up the Historicals do not hold what the plan says. The ETag is the version, which changes only
   * when the plan does, so a Broker polling with If-None-Match gets 304 and no body while nothing changed.
   */
  @GET
  @Path("/routing")
  @Produces(MediaType.APPLICATION_JSON)
  public Response getRouting(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch)
      throws JsonProcessingException
  {
    final RenderedRouting routing = render(holder.snapshot());
    if (matches(ifNoneMatch, routing.etag.getValue())) {
      return Response.notModified(routing.etag).build();
    }
    return Response.ok(routing.body, MediaType.APPLICATION_JSON_TYPE).tag(routing.etag).build();
  }

  /** Whether an If-None-Match header names this entity tag (quoted or not, weak or not, or {@code *}). */
  static boolean matches(String ifNoneMatch, String tag)
  {
    if (ifNoneMatch == null) {
      return false;
    }
    for (String candidate : ifNoneMatch.split(",")) {
      String t = candidate.trim();
      if ("*".equals(t)) {
        return true;
      }
      if (t.startsWith("W/")) {
        t = t.substring(2);
      }
      if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
        t = t.substring(1, t.length() - 1);
      }
      if (t.equals(tag)) {
        return true;
      }
    }
    return false;
  }

  /** Serialises the routing table once per version: polls between plan changes reuse the bytes. */
  private RenderedRouting render(PlanSnapshot snapshot) throws JsonProcessingException
  {
    final long version = snapshot.isActive() ? snapshot.version() : 0;
    final RenderedRouting current = rendered;
    if (current.version == version) {
      return current;
    }
    final RoutingTableMessage table = new RoutingTableMessage(
        version,
        snapshot.generatedAt().toString(),
        version == 0 ? Map.of() : snapshot.shares()
    );
    final RenderedRouting next = new RenderedRouting(
        version,
        jsonMapper.writeValueAsBytes(table),
        new EntityTag(Long.toString(version))
    );
    rendered = next;
    return next;
  }

  private record RenderedRouting(long version, byte[] body, EntityTag etag)
  {
  }
}
