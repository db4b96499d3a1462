package org.getafix.quality;

import org.apache.druid.query.QueryException;
import org.apache.druid.query.QueryTimeoutException;

import javax.annotation.Nullable;
import java.util.concurrent.TimeoutException;

/** Whether a failure is a timeout, wherever in its causes Druid's or Java's clients put it. */
final class Timeouts
{
  private Timeouts()
  {
  }

  static boolean isTimeout(@Nullable Throwable thrown)
  {
    for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof QueryTimeoutException || t instanceof TimeoutException) {
        return true;
      }
      if (t instanceof QueryException && QueryException.QUERY_TIMEOUT_ERROR_CODE.equals(((QueryException) t).getErrorCode())) {
        return true;
      }
    }
    return false;
  }
}
