package org.getafix.localcluster.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The /proc parsing and the warm-up loop on a fake tree; the real one is read by the ITs that warm the Historicals. */
class JitCompilerCpuTest
{
  @Test
  void sumsTheCompilerThreadsOnly(@TempDir Path proc) throws Exception
  {
    Files.createDirectories(proc.resolve("self/task"));
    FakeProc.thread(proc, 7, 7, "java", 500, 20);
    FakeProc.thread(proc, 7, 8, "C2 CompilerThre", 300, 12);
    FakeProc.thread(proc, 7, 9, "C1 CompilerThre", 40, 2);
    FakeProc.thread(proc, 7, 10, "processing_0", 900, 30);
    // A command name with spaces and parentheses must not shift the fields.
    FakeProc.thread(proc, 7, 11, "qtp1) (x y", 5, 5);
    Files.writeString(proc.resolve("7/stat"), FakeProc.stat("java", 2000, 100));

    final JitCompilerCpu jit = new JitCompilerCpu(proc);
    assertTrue(jit.isAvailable());
    assertEquals((300 + 12 + 40 + 2) * 10_000_000L, jit.compilerNanos(7));
    assertEquals(2100 * 10_000_000L, jit.processNanos(7));
  }

  @Test
  void aMissingProcessIsAnError(@TempDir Path proc)
  {
    final JitCompilerCpu jit = new JitCompilerCpu(proc);
    assertFalse(jit.isAvailable());
    assertThrows(IllegalStateException.class, () -> jit.compilerNanos(42));
  }

  @Test
  void theLargestCompilerShareIsTakenOverTheProcessesThatRan()
  {
    final Map<Long, JitCompilerCpu.CpuTimes> before = Map.of(
        1L, new JitCompilerCpu.CpuTimes(100, 1_000),
        2L, new JitCompilerCpu.CpuTimes(100, 1_000),
        3L, new JitCompilerCpu.CpuTimes(500, 1_000),
        4L, new JitCompilerCpu.CpuTimes(0, 1_000)
    );
    final Map<Long, JitCompilerCpu.CpuTimes> after = Map.of(
        1L, new JitCompilerCpu.CpuTimes(150, 2_000),  // 50 of 1,000
        2L, new JitCompilerCpu.CpuTimes(400, 2_000),  // 300 of 1,000: the largest
        3L, new JitCompilerCpu.CpuTimes(100, 1_500)   // a compiler thread retired: clamped at 0
        // 4 exited: not counted
    );
    assertEquals(0.3, JitCompilerCpu.largestCompilerShare(before, after), 1e-12);
    assertTrue(Double.isNaN(JitCompilerCpu.largestCompilerShare(before, before)), "no CPU used, no share");
  }

  @Test
  void warmingStopsAtTheFirstWindowWhoseCompilerShareHasSettled(@TempDir Path proc) throws Exception
  {
    Files.createDirectories(proc.resolve("self/task"));
    final JitCompilerCpu jit = new JitCompilerCpu(proc);
    // Per window, ticks of compiler and of process CPU: 50%, 20%, then 5% compiling.
    final long[][] windows = {{50, 100}, {20, 100}, {5, 100}, {5, 100}};
    final long[] totals = {0, 100};
    process(proc, totals);
    final int[] ran = {0};
    final JitCompilerCpu.WarmUp warmUp = new JitCompilerCpu.WarmUp(0.10, Duration.ofSeconds(7), Duration.ofMinutes(1));
    final JitCompilerCpu.Settling settling = jit.warmUntilSettled(List.of(7L), warmUp, length -> {
      assertEquals(warmUp.window(), length);
      totals[0] += windows[ran[0]][0];
      totals[1] += windows[ran[0]][1];
      ran[0]++;
      process(proc, totals);
    });
    assertEquals(3, settling.windows());
    assertEquals(0.05, settling.lastShare(), 1e-12);

    final JitCompilerCpu.WarmUp noTime = new JitCompilerCpu.WarmUp(0.01, Duration.ofSeconds(7), Duration.ZERO);
    final JitCompilerCpu.Settling atTheDeadline = jit.warmUntilSettled(List.of(7L), noTime, length -> {
      totals[0] += 5;
      totals[1] += 100;
      process(proc, totals);
    });
    assertEquals(1, atTheDeadline.windows(), "the deadline ends the warm-up whatever the share");
    assertEquals(0.05, atTheDeadline.lastShare(), 1e-12);
  }

  @Test
  void warmingRunsNoWindowWhereProcCannotTell(@TempDir Path proc) throws Exception
  {
    final JitCompilerCpu.Settling settling = new JitCompilerCpu(proc).warmUntilSettled(
        List.of(7L),
        JitCompilerCpu.WarmUp.QUERIES,
        length -> {
          throw new AssertionError("ran a window");
        }
    );
    assertEquals(0, settling.windows());
    assertTrue(Double.isNaN(settling.lastShare()));
  }

  @Test
  void aWarmUpAfterAFixedOneHasTheRestOfItsDeadline()
  {
    final JitCompilerCpu.WarmUp rest = JitCompilerCpu.WarmUp.WORKLOAD.remainingAfter(Duration.ofSeconds(60));
    assertEquals(Duration.ofMinutes(4), rest.deadline());
    assertEquals(JitCompilerCpu.WarmUp.WORKLOAD.window(), rest.window());
    assertEquals(JitCompilerCpu.WarmUp.WORKLOAD.settledShare(), rest.settledShare());
  }

  /** Process 7 with one compiler thread: {@code ticks} = {compiler, whole process}, all user time. */
  private static void process(Path proc, long[] ticks) throws Exception
  {
    FakeProc.thread(proc, 7, 8, "C2 CompilerThre", ticks[0], 0);
    Files.writeString(proc.resolve("7/stat"), FakeProc.stat("java", ticks[1], 0));
  }
}
