package org.getafix.localcluster.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThreadCpuTest
{
  @Test
  void sumsTheThreadsWhoseNameMatchesAndTheWholeProcess(@TempDir Path proc) throws Exception
  {
    Files.createDirectories(proc.resolve("self/task"));
    FakeProc.thread(proc, 7, 7, "java", 500, 20);
    FakeProc.thread(proc, 7, 8, "processing-0", 300, 12);
    FakeProc.thread(proc, 7, 9, "processing-1", 40, 2);
    FakeProc.thread(proc, 7, 10, "C2 CompilerThre", 900, 30);
    // A command name with spaces and parentheses must not shift the fields.
    FakeProc.thread(proc, 7, 11, "processing-(2 x", 5, 5);
    Files.writeString(proc.resolve("7/stat"), FakeProc.stat("java", 2000, 100));

    final ThreadCpu cpu = new ThreadCpu(proc);
    assertTrue(cpu.isAvailable());
    assertEquals((300 + 12 + 40 + 2 + 5 + 5) * 10_000_000L, cpu.threadNanos(7, name -> name.startsWith("processing-")));
    assertEquals(0, cpu.threadNanos(7, name -> name.startsWith("qtp")));
    assertEquals(2100 * 10_000_000L, cpu.processNanos(7));
  }

  @Test
  void aMissingProcessIsAnError(@TempDir Path proc)
  {
    final ThreadCpu cpu = new ThreadCpu(proc);
    assertFalse(cpu.isAvailable());
    assertThrows(IllegalStateException.class, () -> cpu.threadNanos(42, name -> true));
  }
}
