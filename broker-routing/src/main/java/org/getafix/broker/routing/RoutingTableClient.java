package org.getafix.broker.routing;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.discovery.DruidLeaderClient;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.java.util.http.client.Request;
import org.apache.druid.java.util.http.client.response.BytesFullResponseHandler;
import org.apache.druid.java.util.http.client.response.BytesFullResponseHolder;
import org.getafix.core.routing.RoutingTable;
import org.getafix.core.routing.RoutingTableHolder;
import org.getafix.core.wire.RoutingTableMessage;
import org.jboss.netty.handler.codec.http.HttpHeaders;
import org.jboss.netty.handler.codec.http.HttpMethod;

import java.util.function.LongSupplier;

/**
 * Fetches the Coordinator's routing table once per round, through the leader client, with a conditional GET: a
 * 304 confirms the current table, a 200 replaces it. Any failure keeps the last good table, which then ages until
 * ABR stops trusting it. Runs on the routing round's thread only, never on a query thread.
 */
public class RoutingTableClient
{
  private static final Logger log = new Logger(RoutingTableClient.class);

  private final DruidLeaderClient coordinator;
  private final ObjectMapper jsonMapper;
  private final RoutingTableHolder tables;
  private final LongSupplier nanoClock;
  private String etag;
  private Outcome lastOutcome;

  public RoutingTableClient(
      DruidLeaderClient coordinator,
      ObjectMapper jsonMapper,
      RoutingTableHolder tables,
      LongSupplier nanoClock
  )
  {
    this.coordinator = coordinator;
    this.jsonMapper = jsonMapper;
    this.tables = tables;
    this.nanoClock = nanoClock;
  }

  public enum Outcome
  {
    UPDATED, NOT_MODIFIED, FAILED
  }

  public Outcome refresh()
  {
    final Outcome outcome = fetch();
    lastOutcome = outcome;
    return outcome;
  }

  private Outcome fetch()
  {
    try {
      final Request request = coordinator.makeRequest(HttpMethod.GET, RoutingTableMessage.PATH);
      if (etag != null) {
        request.setHeader(HttpHeaders.Names.IF_NONE_MATCH, etag);
      }
      final BytesFullResponseHolder response = coordinator.go(request, new BytesFullResponseHandler());
      final int status = response.getStatus().getCode();
      if (status == 304) {
        tables.confirm(nanoClock.getAsLong());
        return Outcome.NOT_MODIFIED;
      }
      if (status != 200) {
        warnOnChange("Coordinator answered [%d] for the routing table; keeping table version [%d].", status, version());
        return Outcome.FAILED;
      }
      final RoutingTableMessage message = jsonMapper.readValue(response.getContent(), RoutingTableMessage.class);
      if (message == null) {
        warnOnChange("Coordinator sent an empty routing table; keeping table version [%d].", version());
        return Outcome.FAILED;
      }
      final RoutingTable table = message.toTable();
      tables.install(table, nanoClock.getAsLong());
      etag = response.getResponse().headers().get(HttpHeaders.Names.ETAG);
      if (table.droppedEntries() > 0) {
        log.warn("Routing table version [%d] had [%d] unusable entries (NaN, negative or blank); they were dropped.",
                 table.version(), table.droppedEntries());
      }
      log.debug("Installed routing table version [%d] with [%d] segments.", table.version(), table.size());
      return Outcome.UPDATED;
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Outcome.FAILED;
    }
    catch (Exception e) {
      warnOnChange("Could not fetch the routing table (%s); keeping table version [%d].", e.toString(), version());
      return Outcome.FAILED;
    }
  }

  private long version()
  {
    return tables.snapshot().table().version();
  }

  /** Warns when fetching starts failing, so a Coordinator without a plan yet does not flood the log every round. */
  private void warnOnChange(String format, Object... args)
  {
    if (lastOutcome == Outcome.FAILED) {
      log.debug(format, args);
    } else {
      log.warn(format, args);
    }
  }
}
