package org.getafix.localcluster.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leftover processes of a cluster (e.g. after the test JVM was SIGKILLed) are found by their marker and killed.
 */
class ProcessReapingTest
{
  @Test
  void findsAndKillsOnlyTheProcessesOfItsWorkDir(@TempDir Path workDir, @TempDir Path otherWorkDir) throws Exception
  {
    final Process mine = sleeper(workDir);
    final Process other = sleeper(otherWorkDir);
    try {
      Waits.await("the sleepers to start", Duration.ofSeconds(30), () -> mine.isAlive() && other.isAlive());
      assertEquals(List.of(mine.pid()), LocalDruidCluster.processesOf(workDir).stream().map(ProcessHandle::pid).toList());

      LocalDruidCluster.reapProcesses(workDir);

      // reapProcesses returns once the process has exited; the Process object learns of it from its own reaper
      // thread a moment later, hence a deadline rather than isAlive().
      assertTrue(mine.waitFor(30, TimeUnit.SECONDS), "leftover process was not killed");
      assertTrue(other.isAlive(), "a process of another cluster was killed");
      assertEquals(List.of(), LocalDruidCluster.processesOf(workDir));
    }
    finally {
      mine.destroyForcibly();
      other.destroyForcibly();
    }
  }

  private static Process sleeper(Path workDir) throws Exception
  {
    return new ProcessBuilder(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx16m",
        "-D" + LocalDruidCluster.MARKER_PROPERTY + "=" + workDir.toAbsolutePath().normalize(),
        "-cp",
        System.getProperty("java.class.path"),
        Sleeper.class.getName()
    ).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
  }

  /**
   * Stands in for a Druid JVM.
   */
  public static final class Sleeper
  {
    public static void main(String[] args) throws InterruptedException
    {
      Thread.sleep(120_000);
    }
  }
}
