package org.getafix.benchmarks.planning;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * CPU time of the benchmark thread over the measurement iterations, beside JMH's wall time. On the shared 2-core
 * box other processes steal the core for whole seconds, which inflates wall time but not the CPU time of the work
 * itself, so the ratio of two CPU times is the steadier figure. GC and JIT threads are not counted.
 * <p>
 * At the end of a trial it prints {@code cpu: <benchmark> <scale> <ns per op> <ns per segment>} and, when the
 * system property {@value #LOG_PROPERTY} names a file, appends the same line there ({@link PlanningReport} reads it).
 */
@State(Scope.Thread)
public class CpuTime
{
  static final String LOG_PROPERTY = "getafix.planning.cpuLog";

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private long startedNanos;
  private long iterationNanos;
  private long iterationOps;
  private long iterationSegments;
  private long measuredNanos;
  private long measuredOps;
  private long measuredSegments;

  void start()
  {
    startedNanos = THREADS.getCurrentThreadCpuTime();
  }

  void stop(long segments)
  {
    iterationNanos += THREADS.getCurrentThreadCpuTime() - startedNanos;
    iterationOps++;
    iterationSegments += segments;
  }

  @Setup(Level.Iteration)
  public void startIteration()
  {
    iterationNanos = 0;
    iterationOps = 0;
    iterationSegments = 0;
  }

  @TearDown(Level.Iteration)
  public void endIteration(IterationParams iteration)
  {
    if (iteration.getType() == IterationType.MEASUREMENT) {
      measuredNanos += iterationNanos;
      measuredOps += iterationOps;
      measuredSegments += iterationSegments;
    }
  }

  @TearDown(Level.Trial)
  public void report(BenchmarkParams benchmark)
  {
    if (measuredOps == 0) {
      return;
    }
    final String line = String.format(
        Locale.ROOT,
        "%s\t%s\t%d\t%.1f%n",
        benchmark.getBenchmark(),
        benchmark.getParam("scale"),
        measuredNanos / measuredOps,
        (double) measuredNanos / measuredSegments
    );
    System.out.print("\ncpu: " + line);
    final String log = System.getProperty(LOG_PROPERTY);
    if (log != null) {
      try {
        Files.writeString(
            Path.of(log),
            line,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND
        );
      }
      catch (IOException e) {
        throw new UncheckedIOException("cannot append CPU times to " + log, e);
      }
    }
  }
}
