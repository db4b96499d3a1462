package org.getafix.quality;

import org.apache.druid.java.util.common.StringUtils;

/** Why a mature run failed: the {@code reason} dimension of {@code getafix/mature/failed}. */
enum MatureRunFailure
{
  /**
   * A memoised sub-answer was evicted to keep the memo within {@code memoMaxBytes} / {@code memoMaxEntries} (or had
   * expired, but the memo had not yet noticed when the run was measured).
   */
  EVICTED,
  /** A memoised sub-answer outlived {@code memoTtl}. */
  EXPIRED,
  /** A late sub-query failed, or was still running at {@code matureTimeoutMs}. */
  LATE,
  /** Merging or measuring the mature answer threw. */
  MERGE,
  /** The query failed before its online answer. */
  ABANDONED;

  String dimension()
  {
    return StringUtils.toLowerCase(name());
  }
}
