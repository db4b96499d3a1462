package org.getafix.quality;

import org.apache.druid.query.Query;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The mature run of one sampled budgeted query: its sub-queries run under their own query id {@link #matureId} and
 * fail time, so that a late one keeps running when the online answer leaves without it. Holds which sub-answers
 * made the deadline (memoised in the {@link MemoStore}) and which late ones are still coming.
 */
final class MatureRun
{
  final String matureId;
  /** The query as asked: its datasource and type name the run's metrics. */
  final Query<?> query;
  final long startMillis;
  final long failTime;
  /** Set once the run is counted, as completed or failed: an evicted memo entry fails it before it is measured. */
  final AtomicBoolean ended = new AtomicBoolean();
  final List<MemoStore.Key> memoised = Collections.synchronizedList(new ArrayList<>());
  final List<CompletableFuture<List<?>>> late = Collections.synchronizedList(new ArrayList<>());

  MatureRun(Query<?> query, long startMillis, long failTime)
  {
    this.matureId = query.getId() + "-mature";
    this.query = query;
    this.startMillis = startMillis;
    this.failTime = failTime;
  }

  void late(CompletableFuture<List<?>> answer)
  {
    late.add(answer);
  }
}
