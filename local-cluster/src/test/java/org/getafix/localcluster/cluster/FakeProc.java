package org.getafix.localcluster.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A {@code /proc} tree under a test's directory, as Linux lays it out, for {@link ThreadCpu} and its users. */
final class FakeProc
{
  private FakeProc()
  {
  }

  /** Thread {@code tid} of process {@code pid}, named {@code name}, with its user and system time in ticks. */
  static void thread(Path proc, int pid, int tid, String name, long utime, long stime) throws IOException
  {
    final Path task = Files.createDirectories(proc.resolve(pid + "/task/" + tid));
    Files.writeString(task.resolve("comm"), name + "\n");
    Files.writeString(task.resolve("stat"), stat(name, utime, stime));
  }

  /** A stat line as Linux writes it: pid (comm) state ppid ... utime stime ... */
  static String stat(String name, long utime, long stime)
  {
    return "7 (" + name + ") S 1 7 7 0 -1 4194560 1000 0 0 0 " + utime + " " + stime + " 0 0 20 0 40 0 100 0 0\n";
  }
}
