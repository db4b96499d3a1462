package org.getafix.quality;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.QueryContextKeys;

import javax.annotation.Nullable;
import java.time.Duration;
import java.util.List;

/**
 * The coverage of the Broker's recent budgeted answers, by query id and by SQL query id, for clients that cannot read
 * the {@code X-Druid-Response-Context} header that carries it ({@value QueryContextKeys#COVERAGE}): such a client sets
 * its own {@code queryId} or {@code sqlQueryId} and looks the coverage up on the quality endpoint. A SQL query that
 * ran several native queries has their coverages summed. Bounded: the last {@value #MAX_QUERIES} answers of each
 * kind, for {@link #KEPT}.
 */
public class RecentCoverage implements BudgetedQuery.Listener
{
  static final int MAX_QUERIES = 10_000;
  static final Duration KEPT = Duration.ofMinutes(10);

  private final Cache<String, Coverage> byQueryId = newCache();
  private final Cache<String, Coverage> bySqlQueryId = newCache();

  private static Cache<String, Coverage> newCache()
  {
    return Caffeine.newBuilder().maximumSize(MAX_QUERIES).expireAfterWrite(KEPT).build();
  }

  @Override
  public void onAnswered(BudgetedQuery<?> query, List<?> rows, long elapsedMillis)
  {
    final Coverage coverage = query.coverage();
    final String queryId = query.query().getId();
    if (queryId != null) {
      byQueryId.put(queryId, coverage);
    }
    final String sqlQueryId = query.query().getSqlQueryId();
    if (sqlQueryId != null) {
      bySqlQueryId.asMap().merge(sqlQueryId, coverage, Coverage::plus);
    }
  }

  /** The coverage of the native query {@code queryId}, or null if it is not a recent budgeted answer. */
  @Nullable
  public Coverage ofQuery(String queryId)
  {
    return byQueryId.getIfPresent(queryId);
  }

  /** The coverage of the SQL query {@code sqlQueryId}, or null if it is not a recent budgeted answer. */
  @Nullable
  public Coverage ofSqlQuery(String sqlQueryId)
  {
    return bySqlQueryId.getIfPresent(sqlQueryId);
  }
}
