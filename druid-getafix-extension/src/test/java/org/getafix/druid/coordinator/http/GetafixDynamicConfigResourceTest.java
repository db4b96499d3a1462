package org.getafix.druid.coordinator.http;

import org.apache.druid.audit.AuditInfo;
import org.apache.druid.audit.AuditManager;
import org.apache.druid.common.config.ConfigManager;
import org.apache.druid.common.config.JacksonConfigManager;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.easymock.Capture;
import org.easymock.EasyMock;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.servlet.http.HttpServletRequest;
import javax.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GetafixDynamicConfigResourceTest
{
  private final AtomicReference<GetafixDynamicConfig> stored = new AtomicReference<>(GetafixDynamicConfig.defaults());
  private final Capture<GetafixDynamicConfig> written = Capture.newInstance();
  private final Capture<AuditInfo> audit = Capture.newInstance();
  private JacksonConfigManager configManager;
  private GetafixDynamicConfigResource resource;
  private HttpServletRequest request;

  @BeforeEach
  void setUp()
  {
    configManager = EasyMock.createMock(JacksonConfigManager.class);
    EasyMock.expect(configManager.watch(
        EasyMock.eq(GetafixDynamicConfig.CONFIG_KEY),
        EasyMock.eq(GetafixDynamicConfig.class),
        EasyMock.anyObject(GetafixDynamicConfig.class)
    )).andReturn(stored).anyTimes();
    EasyMock.expect(configManager.set(
        EasyMock.eq(GetafixDynamicConfig.CONFIG_KEY),
        EasyMock.capture(written),
        EasyMock.capture(audit)
    )).andAnswer(() -> {
      stored.set(written.getValue());
      return ConfigManager.SetResult.ok();
    }).anyTimes();
    EasyMock.replay(configManager);
    request = EasyMock.createNiceMock(HttpServletRequest.class);
    EasyMock.expect(request.getHeader(AuditManager.X_DRUID_AUTHOR)).andReturn("ops").anyTimes();
    EasyMock.expect(request.getHeader(AuditManager.X_DRUID_COMMENT)).andReturn("try dry run").anyTimes();
    EasyMock.replay(request);
    resource = new GetafixDynamicConfigResource(configManager, EasyMock.createMock(AuditManager.class),
                                                new DefaultObjectMapper());
  }

  @Test
  void postAppliesOnlyTheGivenFieldsAndAudits()
  {
    final Response response = resource.setConfig("{\"dryRun\": true, \"maxLoadsPerRound\": 7}", request);
    assertEquals(200, response.getStatus());
    final GetafixDynamicConfig now = stored.get();
    assertTrue(now.isDryRun());
    assertEquals(7, now.getMaxLoadsPerRound());
    assertEquals(GetafixDynamicConfig.defaults().getHotMinNodeLoadShare(), now.getHotMinNodeLoadShare());
    assertEquals(GetafixDynamicConfig.defaults().getGamma(), now.getGamma());
    assertEquals("ops", audit.getValue().getAuthor());
    assertEquals("try dry run", audit.getValue().getComment());
    assertEquals(now, resource.getConfig().getEntity());
    assertEquals(200, resource.setConfig("{\"hotMinNodeLoadShare\": 0.1}", request).getStatus());
    assertEquals(0.1, stored.get().getHotMinNodeLoadShare());
    assertTrue(stored.get().isDryRun(), "fields the POST does not name keep their values");
    assertEquals(200, resource.setConfig("{\"backUpUnstable\": true}", request).getStatus());
    assertTrue(stored.get().isBackUpUnstable());
    assertEquals(0.1, stored.get().getHotMinNodeLoadShare());
  }

  @Test
  void invalidBodiesAre400WithTheReasonAndLeaveTheConfigUnchanged()
  {
    final GetafixDynamicConfig before = stored.get();
    assertBadRequest("{\"gamma\": 1.5}", "gamma must be in [0, 1], got [1.5]");
    assertBadRequest("{\"gamma\": \"NaN\"}", "gamma must be in [0, 1], got [NaN]");
    assertBadRequest("{\"minReplicas\": 0}", "minReplicas must be >= 1, got [0]");
    assertBadRequest("{\"minReplicas\": 4, \"maxReplicas\": 2}", "maxReplicas must be >= minReplicas [4], got [2]");
    assertBadRequest("{\"maxDropsPerRound\": -3}", "maxDropsPerRound must be >= 0, got [-3]");
    assertBadRequest("{\"hotLoadShare\": 1.2}", "hotLoadShare must be in [0, 1], got [1.2]");
    assertBadRequest("{\"hotMinNodeLoadShare\": -0.5}", "hotMinNodeLoadShare must be in [0, 1], got [-0.5]");
    assertBadRequest("{\"hotMinNodeLoadShare\": \"NaN\"}", "hotMinNodeLoadShare must be in [0, 1], got [NaN]");
    assertBadRequest("{\"minPlanGain\": -0.1}", "minPlanGain must be in [0, 10], got [-0.1]");
    assertBadRequest("{\"maxRebalanceDataPerHour\": -0.05}", "maxRebalanceDataPerHour must be in [0, 1000], got [-0.05]");
    assertBadRequest("{\"roundPeriod\": \"five seconds\"}", "roundPeriod must be an ISO-8601 period");
    assertBadRequest("{\"roundPeriod\": \"PT0.1S\"}", "roundPeriod must be in [PT1S, PT1H], got [PT0.1S]");
    assertBadRequest("{\"gama\": 0.1}", "gama");
    assertBadRequest("{\"gamma\": ", "invalid Getafix config JSON");
    assertBadRequest("", "request body");
    assertBadRequest("null", "got null");
    assertEquals(before, stored.get());
    assertFalse(written.hasCaptured(), "nothing was written for an invalid body");
  }

  @Test
  void fieldsOfTheWrongJsonTypeOrTrailingGarbageAre400()
  {
    final GetafixDynamicConfig before = stored.get();
    assertBadRequest("{\"enabled\": 0}", "enabled");
    assertBadRequest("{\"dryRun\": \"true\"}", "dryRun");
    assertBadRequest("{\"gamma\": \"0.25\"}", "gamma");
    assertBadRequest("{\"minReplicas\": 1.7}", "minReplicas");
    assertBadRequest("{\"gamma\": 0.2} {\"gamma\": 0.3}", "Trailing token");
    assertBadRequest("{\"rollback\": \"yes\"}", "rollback");
    assertEquals(before, stored.get());
    assertFalse(written.hasCaptured(), "nothing was written for an invalid body");
  }

  @Test
  void aRollbackIsStoredUnlessItWouldBeADryRunToo()
  {
    assertEquals(200, resource.setConfig("{\"dryRun\": true}", request).getStatus());
    assertBadRequest("{\"rollback\": true}", "rollback and dryRun cannot both be true");
    assertFalse(stored.get().isRollback());
    assertEquals(200, resource.setConfig("{\"dryRun\": false, \"rollback\": true}", request).getStatus());
    assertTrue(stored.get().isRollback());
    assertEquals(200, resource.setConfig("{\"gamma\": 0.3}", request).getStatus());
    assertTrue(stored.get().isRollback(), "a body that does not name rollback keeps it");
  }

  @Test
  void boundsHoldAndRoundPeriodCanBeUnset()
  {
    assertBadRequest("{\"maxReplicas\": 1000000}", "maxReplicas must be in [1, 100], got [1000000]");
    assertBadRequest("{\"roundPeriod\": \"PT2147483647S\"}", "roundPeriod must be in [PT1S, PT1H], got [PT2147483647S]");
    assertEquals(200, resource.setConfig("{\"roundPeriod\": \"PT10S\"}", request).getStatus());
    assertEquals("PT10S", stored.get().getRoundPeriod());
    assertEquals(200, resource.setConfig("{\"gamma\": 0.2}", request).getStatus());
    assertEquals("PT10S", stored.get().getRoundPeriod(), "a body that does not name roundPeriod keeps it");
    assertEquals(200, resource.setConfig("{\"roundPeriod\": null}", request).getStatus());
    assertNull(stored.get().getRoundPeriod(), "null unsets roundPeriod");
  }

  @Test
  void aMalformedHistoryIntervalIs400()
  {
    final Response response = resource.getHistory("garbage", null);
    assertEquals(400, response.getStatus());
    @SuppressWarnings("unchecked")
    final Map<String, String> entity = (Map<String, String>) response.getEntity();
    assertTrue(entity.get("error").contains("garbage"), entity.toString());
  }

  @Test
  void configRoundTripsThroughJson() throws Exception
  {
    final DefaultObjectMapper mapper = new DefaultObjectMapper();
    final GetafixDynamicConfig config =
        new GetafixDynamicConfig(false, true, 0.1, 2, 4, "PT10S", 5, 6, 0.8, 0.1, true, 0.3, 0.5, false);
    assertEquals(config, mapper.readValue(mapper.writeValueAsString(config), GetafixDynamicConfig.class));
    assertEquals(0.1, config.getHotMinNodeLoadShare());
    assertEquals(0.08, GetafixDynamicConfig.defaults().getHotMinNodeLoadShare());
    assertTrue(config.isBackUpUnstable());
    assertFalse(GetafixDynamicConfig.defaults().isBackUpUnstable());
    assertEquals(0.3, config.getMinPlanGain());
    assertEquals(0.1, GetafixDynamicConfig.defaults().getMinPlanGain());
    assertEquals(0.5, config.getMaxRebalanceDataPerHour());
    assertEquals(0.05, GetafixDynamicConfig.defaults().getMaxRebalanceDataPerHour());
    assertEquals(10_000, config.roundPeriodMillisOr(5000));
    assertEquals(5000, GetafixDynamicConfig.defaults().roundPeriodMillisOr(5000));
    assertEquals(List.of(), config.validate());
  }

  private void assertBadRequest(String body, String reason)
  {
    final Response response = resource.setConfig(body, request);
    assertEquals(400, response.getStatus(), body);
    @SuppressWarnings("unchecked")
    final Map<String, String> entity = (Map<String, String>) response.getEntity();
    assertTrue(entity.get("error").contains(reason), "for " + body + ": " + entity);
  }
}
