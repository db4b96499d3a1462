package org.getafix.localcluster.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * CPU time of a JVM's JIT compiler threads ({@code C1 CompilerThreadN}, {@code C2 CompilerThreadN}), read from
 * {@code /proc/<pid>/task}. A fresh Historical capped at a fraction of a core spends minutes compiling Druid's query
 * path, on its own quota: a measurement that starts right away measures the compilers along with the queries (up to a
 * quarter of each node's CPU went to them through a whole first phase), so measurements first warm the Historicals
 * until the compilers settle ({@link #warmUntilSettled}) and report their share.
 */
public final class JitCompilerCpu
{
  /** The kernel keeps 15 characters of a thread name: "C2 CompilerThread0" reads "C2 CompilerThre". */
  private static final Predicate<String> COMPILER_THREAD = Pattern.compile("C[12] CompilerThre.*").asMatchPredicate();

  private final ThreadCpu threads;

  public JitCompilerCpu(Path proc)
  {
    this.threads = new ThreadCpu(proc);
  }

  public static JitCompilerCpu ofThisMachine()
  {
    return new JitCompilerCpu(Path.of("/proc"));
  }

  public boolean isAvailable()
  {
    return threads.isAvailable();
  }

  /**
   * CPU time (ns) of the process's live compiler threads. HotSpot may retire a compiler thread that idles, taking
   * its time with it, so a difference of two readings is a lower bound and may even be negative: clamp it at 0.
   */
  public long compilerNanos(long pid)
  {
    return threads.threadNanos(pid, COMPILER_THREAD);
  }

  /** Compiler and whole-process CPU time of each process now; empty where /proc cannot tell. */
  public Map<Long, CpuTimes> read(Collection<Long> pids)
  {
    final Map<Long, CpuTimes> reading = new HashMap<>();
    if (isAvailable()) {
      for (long pid : pids) {
        reading.put(pid, new CpuTimes(compilerNanos(pid), processNanos(pid)));
      }
    }
    return reading;
  }

  /**
   * The largest share of a process's CPU its compilers took between two readings, over the processes in both that
   * used any CPU; NaN if there is none.
   */
  public static double largestCompilerShare(Map<Long, CpuTimes> before, Map<Long, CpuTimes> after)
  {
    double largest = Double.NaN;
    for (Map.Entry<Long, CpuTimes> process : before.entrySet()) {
      final CpuTimes now = after.get(process.getKey());
      final long used = now == null ? 0 : now.processNanos() - process.getValue().processNanos();
      if (used > 0) {
        final double share = Math.max(0, now.compilerNanos() - process.getValue().compilerNanos()) / (double) used;
        largest = Double.isNaN(largest) ? share : Math.max(largest, share);
      }
    }
    return largest;
  }

  /**
   * Runs {@code load} in windows of {@link WarmUp#window} until, over the last window, no process's compilers took
   * more than {@link WarmUp#settledShare} of its CPU, or {@link WarmUp#deadline} has passed since the call. Runs no
   * window where /proc cannot tell.
   */
  public Settling warmUntilSettled(Collection<Long> pids, WarmUp warmUp, LoadWindow load) throws Exception
  {
    final long start = System.nanoTime();
    double share = Double.NaN;
    int windows = 0;
    while (isAvailable()) {
      final Map<Long, CpuTimes> before = read(pids);
      load.run(warmUp.window());
      windows++;
      share = largestCompilerShare(before, read(pids));
      if (share <= warmUp.settledShare() || System.nanoTime() - start >= warmUp.deadline().toNanos()) {
        break;
      }
    }
    return new Settling(windows, share, Duration.ofNanos(System.nanoTime() - start));
  }

  /** CPU time (ns) of the whole process, all threads, live and exited. */
  public long processNanos(long pid)
  {
    return threads.processNanos(pid);
  }

  /** One window of load during {@link #warmUntilSettled}: it puts load on the processes for about {@code length}. */
  @FunctionalInterface
  public interface LoadWindow
  {
    void run(Duration length) throws Exception;
  }

  /**
   * How long to warm processes until their compilers settle.
   *
   * @param settledShare the largest share of a process's CPU its compilers may take over a window for it to count as
   *                     settled: in the steady state of a full IT suite a Historical's share stays under 0.05, on a
   *                     fresh cluster's first minutes it is 0.15-0.45
   * @param window       how long one window of load runs; the share is read over each
   * @param deadline     the longest the warm-up runs, settled or not; the last window's share is reported either way
   */
  public record WarmUp(double settledShare, Duration window, Duration deadline)
  {
    /**
     * Warming with a test's own few query types, before it measures answers to them: 10 s windows, at most 2 minutes.
     */
    public static final WarmUp QUERIES = new WarmUp(0.10, Duration.ofSeconds(10), Duration.ofMinutes(2));
    /**
     * Warming with a whole workload before it is measured: 20 s windows, at most 5 minutes. On a fresh cluster the
     * compilers kept up to a quarter of each node's CPU through a whole two-minute measurement of the workload.
     */
    public static final WarmUp WORKLOAD = new WarmUp(0.10, Duration.ofSeconds(20), Duration.ofMinutes(5));

    /** This warm-up with {@code spent} already gone from its deadline, e.g. by a fixed warm-up before it. */
    public WarmUp remainingAfter(Duration spent)
    {
      return new WarmUp(settledShare, window, deadline.minus(spent));
    }
  }

  /**
   * How {@link #warmUntilSettled} ended: the windows it ran, the largest compiler share in the last one (NaN where
   * /proc cannot tell) and how long it took.
   */
  public record Settling(int windows, double lastShare, Duration took)
  {
  }

  /** One process's CPU time so far: its live compiler threads' and its own. */
  public record CpuTimes(long compilerNanos, long processNanos)
  {
  }
}
