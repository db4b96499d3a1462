package org.getafix.quality;

import org.apache.druid.java.util.common.StringUtils;

/** Why a queued replay was dropped unrun: the {@code reason} dimension of {@code getafix/quality/replay/dropped}. */
enum ReplayDrop
{
  /** The queue was full: its oldest entry made room for a newer one. */
  FULL,
  /** Its online answer is older than {@code replayExpiration}: its result would come too late, on changed data. */
  EXPIRED;

  String dimension()
  {
    return StringUtils.toLowerCase(name());
  }
}
