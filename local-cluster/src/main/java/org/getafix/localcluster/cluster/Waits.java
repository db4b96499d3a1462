package org.getafix.localcluster.cluster;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Polling with a deadline: the only way the launcher and the integration tests wait for a condition.
 * There are no fixed sleeps; the poll interval only bounds how often the condition is checked.
 */
public final class Waits
{
  private static final Duration DEFAULT_POLL = Duration.ofMillis(500);

  private Waits()
  {
  }

  /**
   * A condition that may also throw: a failed check (e.g. connection refused) counts as "not yet".
   */
  @FunctionalInterface
  public interface Check
  {
    boolean ready() throws Exception;
  }

  public static void await(String what, Duration timeout, Check condition) throws TimeoutException
  {
    await(what, timeout, DEFAULT_POLL, condition, () -> "");
  }

  /**
   * Waits until {@code condition} holds, checking every {@code poll}, and fails after {@code timeout} with a message
   * naming what was awaited, the last failure of the check and {@code diagnostics} (e.g. a log tail).
   */
  public static void await(String what, Duration timeout, Duration poll, Check condition, Supplier<String> diagnostics)
      throws TimeoutException
  {
    final long deadline = System.nanoTime() + timeout.toNanos();
    Exception lastFailure = null;
    while (true) {
      try {
        if (condition.ready()) {
          return;
        }
      }
      catch (AbortWait e) {
        throw e;
      }
      catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for " + what, e);
      }
      catch (Exception e) {
        lastFailure = e;
      }
      if (System.nanoTime() - deadline >= 0) {
        final TimeoutException timeoutException = new TimeoutException(
            "Timed out after " + timeout.toSeconds() + " s waiting for " + what
            + (lastFailure == null ? "" : "; last check failed with: " + lastFailure)
            + diagnostics.get()
        );
        if (lastFailure != null) {
          timeoutException.initCause(lastFailure);
        }
        throw timeoutException;
      }
      try {
        Thread.sleep(poll.toMillis());
      }
      catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for " + what, e);
      }
    }
  }

  /**
   * Thrown by a check to stop waiting at once, e.g. because the process being waited for has died.
   */
  public static final class AbortWait extends RuntimeException
  {
    public AbortWait(String message)
    {
      super(message);
    }
  }
}
