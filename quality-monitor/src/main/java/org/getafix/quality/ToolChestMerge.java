package org.getafix.quality;

import org.apache.druid.java.util.common.guava.Sequence;
import org.apache.druid.java.util.common.guava.Sequences;
import org.apache.druid.query.FluentQueryRunner;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryPlus;
import org.apache.druid.query.QueryRunner;
import org.apache.druid.query.QueryRunnerFactoryConglomerate;
import org.apache.druid.query.QueryToolChest;
import org.apache.druid.query.context.ResponseContext;
import org.apache.druid.server.ResourceIdPopulatingQueryRunner;

import java.util.List;

/** Per-server answers of one query merged as the Broker merges them: ordered merge, then the query's toolchest. */
final class ToolChestMerge
{
  private final QueryRunnerFactoryConglomerate conglomerate;

  ToolChestMerge(QueryRunnerFactoryConglomerate conglomerate)
  {
    this.conglomerate = conglomerate;
  }

  <T> List<T> merge(Query<T> query, List<List<T>> subAnswers)
  {
    final QueryToolChest<T, Query<T>> toolChest = conglomerate.getToolChest(query);
    final QueryRunner<T> scatterGather = (queryPlus, context) -> Sequences
        .simple(subAnswers.stream().map(Sequences::simple).map(s -> (Sequence<T>) s).toList())
        .flatMerge(s -> s, queryPlus.getQuery().getResultOrdering());
    // A fresh resource id, as Druid's walker gives each query: groupBy reserves its merge buffers under it.
    final Query<T> mergeQuery = ResourceIdPopulatingQueryRunner.populateResourceId(query);
    return FluentQueryRunner.create(scatterGather, toolChest)
                            .applyPreMergeDecoration()
                            .mergeResults(false)
                            .applyPostMergeDecoration()
                            .run(QueryPlus.wrap(mergeQuery), ResponseContext.createEmpty())
                            .toList();
  }
}
