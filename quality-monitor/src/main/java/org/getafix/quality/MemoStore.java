package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;

import javax.annotation.Nullable;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The sub-answers of sampled queries that made their deadline, kept until their mature run is measured. Bounded in
 * bytes ({@code memoMaxBytes}, each sub-answer weighed by its serialized size, measured once), in entries (every
 * entry weighs at least {@code memoMaxBytes / memoMaxEntries}) and in time ({@code memoTtl}). An evicted or expired
 * entry is reported to {@code onEvicted}: its run can never be measured.
 */
final class MemoStore
{
  private final Cache<Key, List<?>> memo;
  private final ObjectMapper jsonMapper;
  private final long maxBytes;

  /** A memoised sub-answer: one server's answer within one run. */
  static final class Key
  {
    final MatureRun run;
    final String server;
    final int bytes;

    Key(MatureRun run, String server, int bytes)
    {
      this.run = run;
      this.server = server;
      this.bytes = bytes;
    }

    @Override
    public boolean equals(Object o)
    {
      return o instanceof Key && ((Key) o).run == run && ((Key) o).server.equals(server);
    }

    @Override
    public int hashCode()
    {
      return 31 * System.identityHashCode(run) + server.hashCode();
    }
  }

  MemoStore(QualityConfig config, ObjectMapper jsonMapper, BiConsumer<Key, RemovalCause> onEvicted)
  {
    this.jsonMapper = jsonMapper;
    this.maxBytes = config.getMemoMaxBytes();
    final int minimumWeight = (int) Math.min(Integer.MAX_VALUE, Math.max(1, maxBytes / config.getMemoMaxEntries()));
    this.memo = Caffeine.newBuilder()
                        .maximumWeight(maxBytes)
                        .weigher((Key key, List<?> rows) -> Math.max(key.bytes, minimumWeight))
                        // Eviction on the writer's thread rather than the common pool: the bound holds when put
                        // returns, and a run reading its memo sees the evictions of earlier writes.
                        .executor(Runnable::run)
                        .expireAfterWrite(config.getMemoTtl().toStandardDuration().getMillis(), TimeUnit.MILLISECONDS)
                        .removalListener((Key key, List<?> rows, RemovalCause cause) -> {
                          if (key != null && cause.wasEvicted()) {
                            onEvicted.accept(key, cause);
                          }
                        })
                        .build();
  }

  /** Memoises {@code server}'s sub-answer of {@code run}, weighed by its serialized size. */
  void put(MatureRun run, String server, List<?> rows)
  {
    int bytes;
    try {
      bytes = jsonMapper.writeValueAsBytes(rows).length;
    }
    catch (Exception e) {
      // Unmeasurable: weigh it as the whole memo, so that it is evicted first (and its mature run fails, counted).
      bytes = (int) Math.min(Integer.MAX_VALUE, maxBytes);
    }
    final Key key = new Key(run, server, bytes);
    run.memoised.add(key);
    memo.put(key, rows);
  }

  @Nullable
  List<?> get(Key key)
  {
    return memo.getIfPresent(key);
  }

  /** Forgets every sub-answer of {@code run}. */
  void forget(MatureRun run)
  {
    run.memoised.forEach(memo::invalidate);
  }

  /** The weighed size: what {@code memoMaxBytes} bounds. */
  long bytes()
  {
    return memo.policy().eviction().map(eviction -> eviction.weightedSize().orElse(0)).orElse(0L);
  }

  long entries()
  {
    return memo.estimatedSize();
  }
}
