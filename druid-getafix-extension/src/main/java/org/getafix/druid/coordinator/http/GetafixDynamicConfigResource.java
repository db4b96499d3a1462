package org.getafix.druid.coordinator.http;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.google.inject.Inject;
import com.sun.jersey.spi.container.ResourceFilters;
import org.apache.druid.audit.AuditManager;
import org.apache.druid.common.config.ConfigManager.SetResult;
import org.apache.druid.common.config.JacksonConfigManager;
import org.apache.druid.error.DruidException;
import org.apache.druid.guice.annotations.Json;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.server.http.ServletResourceUtils;
import org.apache.druid.server.http.security.ConfigResourceFilter;
import org.apache.druid.server.http.security.StateResourceFilter;
import org.apache.druid.server.security.AuthorizationUtils;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;

import javax.servlet.http.HttpServletRequest;
import javax.ws.rs.Consumes;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.Context;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.util.List;

/**
 * {@code /druid/coordinator/v1/getafix/config}: the Getafix dynamic config, modelled on Druid's
 * {@code CoordinatorDynamicConfigsResource}. GET needs READ on STATE; POST needs WRITE on CONFIG, applies the given
 * fields on top of the current config, and answers 400 naming every bad value (the stored config is then
 * unchanged). Changes are audited with the request's author and comment headers; GET /history lists them.
 */
@Path("/druid/coordinator/v1/getafix/config")
public class GetafixDynamicConfigResource
{
  private final JacksonConfigManager configManager;
  private final AuditManager auditManager;
  private final ObjectReader updateReader;

  @Inject
  public GetafixDynamicConfigResource(
      JacksonConfigManager configManager,
      AuditManager auditManager,
      @Json ObjectMapper jsonMapper
  )
  {
    this.configManager = configManager;
    this.auditManager = auditManager;
    this.updateReader = strict(jsonMapper).readerFor(GetafixDynamicConfig.Update.class);
  }

  /**
   * {@code mapper} reading a posted config strictly, so that an operator's typo is an error rather than a guess: each
   * field's JSON type must be its own ({@code "0.25"} is not a number, {@code 0} not a boolean, {@code 1.7} not an
   * integer), unknown fields fail, and nothing may follow the object.
   */
  private static ObjectMapper strict(ObjectMapper mapper)
  {
    final ObjectMapper strict = mapper.copy();
    strict.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS);
    strict.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
    strict.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    strict.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    return strict;
  }

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  @ResourceFilters(StateResourceFilter.class)
  public Response getConfig()
  {
    return Response.ok(current()).build();
  }

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces(MediaType.APPLICATION_JSON)
  @ResourceFilters(ConfigResourceFilter.class)
  public Response setConfig(String body, @Context HttpServletRequest req)
  {
    if (body == null || body.isBlank()) {
      return badRequest("the request body must be a JSON object of Getafix config fields");
    }
    final GetafixDynamicConfig.Update update;
    try {
      update = updateReader.readValue(body);
    }
    catch (Exception e) {
      return badRequest("invalid Getafix config JSON: " + e.getMessage());
    }
    if (update == null) {
      return badRequest("the request body must be a JSON object of Getafix config fields, got null");
    }
    final GetafixDynamicConfig next = update.applyTo(current());
    final List<String> problems = next.validate();
    if (!problems.isEmpty()) {
      return badRequest(String.join("; ", problems));
    }
    final SetResult result = configManager.set(
        GetafixDynamicConfig.CONFIG_KEY,
        next,
        AuthorizationUtils.buildAuditInfo(req)
    );
    if (!result.isOk()) {
      return Response.status(Response.Status.INTERNAL_SERVER_ERROR)
                     .entity(ServletResourceUtils.sanitizeException(result.getException()))
                     .build();
    }
    return Response.ok(next).build();
  }

  @GET
  @Path("/history")
  @Produces(MediaType.APPLICATION_JSON)
  @ResourceFilters(ConfigResourceFilter.class)
  public Response getHistory(@QueryParam("interval") String interval, @QueryParam("count") Integer count)
  {
    try {
      if (interval == null && count != null) {
        return Response.ok(auditManager.fetchAuditHistory(
            GetafixDynamicConfig.CONFIG_KEY, GetafixDynamicConfig.CONFIG_KEY, count
        )).build();
      }
      return Response.ok(auditManager.fetchAuditHistory(
          GetafixDynamicConfig.CONFIG_KEY,
          GetafixDynamicConfig.CONFIG_KEY,
          interval == null ? null : Intervals.of(interval)
      )).build();
    }
    catch (IllegalArgumentException | DruidException e) {
      // Druid's Intervals.of reports a malformed interval as an invalid-input DruidException.
      return badRequest(e.getMessage());
    }
  }

  private GetafixDynamicConfig current()
  {
    final GetafixDynamicConfig config = configManager.watch(
        GetafixDynamicConfig.CONFIG_KEY,
        GetafixDynamicConfig.class,
        GetafixDynamicConfig.defaults()
    ).get();
    return config == null ? GetafixDynamicConfig.defaults() : config;
  }

  private static Response badRequest(String message)
  {
    return Response.status(Response.Status.BAD_REQUEST)
                   .type(MediaType.APPLICATION_JSON_TYPE)
                   .entity(ServletResourceUtils.jsonize("%s", message))
                   .build();
  }
}
