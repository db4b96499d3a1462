package org.getafix.quality;

import org.apache.druid.query.Query;
import org.apache.druid.query.QueryLogic;
import org.apache.druid.query.QueryRunnerFactory;
import org.apache.druid.query.QueryRunnerFactoryConglomerate;
import org.apache.druid.query.QueryToolChest;
import org.apache.druid.query.timeseries.TimeseriesQueryQueryToolChest;

/** A conglomerate with one toolchest, timeseries', for tests whose every query is a timeseries. */
final class TimeseriesConglomerate implements QueryRunnerFactoryConglomerate
{
  @Override
  public <T, QueryType extends Query<T>> QueryRunnerFactory<T, QueryType> findFactory(QueryType query)
  {
    throw new UnsupportedOperationException();
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T, QueryType extends Query<T>> QueryToolChest<T, QueryType> getToolChest(QueryType query)
  {
    return (QueryToolChest<T, QueryType>) new TimeseriesQueryQueryToolChest();
  }

  @Override
  public <T, QueryType extends Query<T>> QueryLogic getQueryLogic(QueryType query)
  {
    return null;
  }
}
