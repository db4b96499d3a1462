package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Inject;
import org.apache.druid.client.DruidServer;
import org.apache.druid.client.QueryableDruidServer;
import org.apache.druid.guice.annotations.EscalatedClient;
import org.apache.druid.guice.annotations.Smile;
import org.apache.druid.guice.http.DruidHttpClientConfig;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.common.concurrent.ScheduledExecutors;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.query.QueryRunnerFactoryConglomerate;
import org.apache.druid.query.QueryWatcher;
import org.apache.druid.utils.JvmUtils;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The Broker's {@link QueryableDruidServer.Maker} with {@link BudgetedDruidClient}s in place of Druid's
 * {@code DirectDruidClientFactory}: the same dependencies, the same cancellation executor sizing.
 */
public class BudgetedDruidClientFactory implements QueryableDruidServer.Maker
{
  private final ServiceEmitter emitter;
  private final QueryRunnerFactoryConglomerate conglomerate;
  private final QueryWatcher queryWatcher;
  private final ObjectMapper smileMapper;
  private final HttpClient httpClient;
  private final ScheduledExecutorService queryCancellationExecutor;
  private final ExecutorService reader;
  private final BudgetedQueries budgetedQueries;
  private final MatureRuns matureRuns;
  private final Hedging hedging;
  private final int connectionsPerHistorical;

  @Inject
  public BudgetedDruidClientFactory(
      ServiceEmitter emitter,
      QueryRunnerFactoryConglomerate conglomerate,
      QueryWatcher queryWatcher,
      @Smile ObjectMapper smileMapper,
      @EscalatedClient HttpClient httpClient,
      @EscalatedClient DruidHttpClientConfig httpClientConfig,
      QualityConfig config,
      BudgetedQueries budgetedQueries,
      MatureRuns matureRuns,
      Hedging hedging
  )
  {
    this.budgetedQueries = budgetedQueries;
    this.matureRuns = matureRuns;
    this.hedging = hedging;
    this.emitter = emitter;
    this.conglomerate = conglomerate;
    this.queryWatcher = queryWatcher;
    this.smileMapper = smileMapper;
    this.httpClient = httpClient;
    this.connectionsPerHistorical = httpClientConfig.getNumConnections();
    this.queryCancellationExecutor = ScheduledExecutors.fixed(
        Math.max(1, JvmUtils.getRuntimeInfo().getAvailableProcessors() / 2),
        "query-cancellation-executor"
    );
    // Daemon threads, mostly blocked on a Historical's answer; a sub-query queued behind a full pool past its
    // deadline counts as late.
    this.reader = Execs.multiThreaded(config.getReaderThreads(), "getafix-budget-reader-%d");
  }

  @Override
  public QueryableDruidServer make(DruidServer server)
  {
    return new QueryableDruidServer(
        server,
        new BudgetedDruidClient<>(
            conglomerate,
            new RequestCapture(queryWatcher),
            smileMapper,
            httpClient,
            server.getScheme(),
            server.getHost(),
            emitter,
            queryCancellationExecutor,
            reader,
            budgetedQueries,
            matureRuns,
            hedging,
            connectionsPerHistorical,
            System::currentTimeMillis
        )
    );
  }
}
