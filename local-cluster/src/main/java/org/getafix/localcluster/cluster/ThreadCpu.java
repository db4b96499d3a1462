package org.getafix.localcluster.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * CPU time of a process and of its threads by name, read from {@code /proc/<pid>/stat} and {@code /proc/<pid>/task},
 * so that a measurement can tell the work it is after (e.g. a Historical's segment scans) from what the same JVM does
 * besides (its compilers, its collector, its announcements).
 */
public final class ThreadCpu
{
  /** Linux's USER_HZ, the unit of utime and stime in {@code /proc}; 100 on every Linux ABI Druid runs on. */
  private static final long TICKS_PER_SECOND = 100;
  private static final long NANOS_PER_TICK = 1_000_000_000L / TICKS_PER_SECOND;

  private final Path proc;

  public ThreadCpu(Path proc)
  {
    this.proc = proc;
  }

  public static ThreadCpu ofThisMachine()
  {
    return new ThreadCpu(Path.of("/proc"));
  }

  public boolean isAvailable()
  {
    return Files.isDirectory(proc.resolve("self/task"));
  }

  /**
   * CPU time (ns) of the process's live threads whose name matches. The kernel keeps 15 characters of a thread's
   * name. A thread that exits takes its time with it, so a difference of two readings is a lower bound.
   */
  public long threadNanos(long pid, Predicate<String> threadName)
  {
    final Path tasks = proc.resolve(Long.toString(pid)).resolve("task");
    try (Stream<Path> threads = Files.list(tasks)) {
      return threads.filter(task -> threadName.test(name(task))).mapToLong(ThreadCpu::cpuNanos).sum();
    }
    catch (NoSuchFileException e) {
      throw new IllegalStateException("no process " + pid + " under " + proc, e);
    }
    catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** CPU time (ns) of the whole process, all threads, live and exited. */
  public long processNanos(long pid)
  {
    return cpuNanos(proc.resolve(Long.toString(pid)));
  }

  private static String name(Path task)
  {
    try {
      return Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).trim();
    }
    catch (IOException e) {
      return ""; // the thread exited while we listed it
    }
  }

  /** utime + stime of a {@code stat} file: fields 14 and 15, counted after the parenthesised command name. */
  private static long cpuNanos(Path processOrTask)
  {
    final String stat;
    try {
      stat = Files.readString(processOrTask.resolve("stat"), StandardCharsets.UTF_8);
    }
    catch (IOException e) {
      return 0; // an exited thread: its time is gone from the list anyway
    }
    final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    // fields[0] is field 3 (state), so utime (14) and stime (15) are fields[11] and fields[12].
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
  }
}
