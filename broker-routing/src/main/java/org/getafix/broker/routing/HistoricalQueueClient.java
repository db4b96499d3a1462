package org.getafix.broker.routing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.util.concurrent.ListenableFuture;
import org.apache.druid.discovery.DiscoveryDruidNode;
import org.apache.druid.discovery.DruidNodeDiscoveryProvider;
import org.apache.druid.discovery.NodeRole;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.java.util.http.client.Request;
import org.apache.druid.java.util.http.client.response.BytesFullResponseHandler;
import org.apache.druid.java.util.http.client.response.BytesFullResponseHolder;
import org.apache.druid.server.DruidNode;
import org.getafix.core.routing.NodeFeedback;
import org.getafix.core.wire.HistoricalStatsReport;
import org.jboss.netty.handler.codec.http.HttpMethod;
import org.joda.time.Duration;

import java.net.URL;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Polls every Historical's Getafix stats endpoint once per round, in parallel and with a timeout, and reports each
 * one's queue length into {@link NodeFeedback}. A Historical that fails to answer simply gets no report this round;
 * its last report ages out in the policies. Runs on the routing round's thread only.
 */
public class HistoricalQueueClient
{
  private static final Logger log = new Logger(HistoricalQueueClient.class);

  private final HttpClient httpClient;
  private final DruidNodeDiscoveryProvider discovery;
  private final ObjectMapper jsonMapper;
  private final NodeFeedback feedback;
  private final String path;
  private final Duration timeout;
  private final LongSupplier nanoClock;
  private final HistoricalQueueEstimator estimator = new HistoricalQueueEstimator();

  public HistoricalQueueClient(
      HttpClient httpClient,
      DruidNodeDiscoveryProvider discovery,
      ObjectMapper jsonMapper,
      NodeFeedback feedback,
      String path,
      Duration timeout,
      LongSupplier nanoClock
  )
  {
    this.httpClient = httpClient;
    this.discovery = discovery;
    this.jsonMapper = jsonMapper;
    this.feedback = feedback;
    this.path = path;
    this.timeout = timeout;
    this.nanoClock = nanoClock;
  }

  /** @return the number of Historicals whose queue was reported this round */
  public int refresh()
  {
    final Map<String, ListenableFuture<BytesFullResponseHolder>> requests = new HashMap<>();
    for (DiscoveryDruidNode node : discovery.getForNodeRole(NodeRole.HISTORICAL).getAllNodes()) {
      final DruidNode druidNode = node.getDruidNode();
      final String nodeId = druidNode.getHostAndPortToUse();
      try {
        final URL url = new URL(druidNode.getServiceScheme() + "://" + nodeId + path);
        requests.put(nodeId, httpClient.go(new Request(HttpMethod.GET, url), new BytesFullResponseHandler(), timeout));
      }
      catch (Exception e) {
        log.debug(e, "Could not request stats of Historical [%s].", nodeId);
      }
    }
    estimator.retain(requests.keySet());

    final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout.getMillis());
    int reported = 0;
    for (Map.Entry<String, ListenableFuture<BytesFullResponseHolder>> request : requests.entrySet()) {
      final String nodeId = request.getKey();
      try {
        final BytesFullResponseHolder response =
            request.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (response.getStatus().getCode() != 200) {
          log.debug("Historical [%s] answered [%d] for its stats.", nodeId, response.getStatus().getCode());
          continue;
        }
        final HistoricalStatsReport report = jsonMapper.readValue(response.getContent(), HistoricalStatsReport.class);
        final String problem = report == null ? "no report" : report.problem();
        if (problem != null) {
          log.debug("Unusable stats from Historical [%s]: %s.", nodeId, problem);
          continue;
        }
        final double queue = estimator.estimate(nodeId, report);
        if (!Double.isNaN(queue)) {
          feedback.reportQueue(nodeId, queue, nanoClock.getAsLong());
          reported++;
        }
      }
      catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      catch (Exception e) {
        request.getValue().cancel(true);
        log.debug(e, "No usable stats from Historical [%s] this round.", nodeId);
      }
    }
    return reported;
  }
}
