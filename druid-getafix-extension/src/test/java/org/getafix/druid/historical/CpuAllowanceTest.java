package org.getafix.druid.historical;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CpuAllowanceTest
{
  @Test
  void cgroupV1QuotaOfTheProcessGroup(@TempDir Path root) throws IOException
  {
    write(root, "proc/self/cgroup", "4:cpu,cpuacct:/getafix-h3\n3:memory:/\n");
    write(root, "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1");
    write(root, "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000");
    write(root, "sys/fs/cgroup/cpu,cpuacct/getafix-h3/cpu.cfs_quota_us", "25000");
    write(root, "sys/fs/cgroup/cpu,cpuacct/getafix-h3/cpu.cfs_period_us", "100000");
    assertEquals(0.25, new CpuAllowance(root).quotaCores(), 1e-12);
    assertEquals(0.25, new CpuAllowance(root).cores(), 1e-12, "below the cores Java sees");
  }

  @Test
  void cgroupV2TakesTheTightestLevelAndSkipsMissingOnes(@TempDir Path root) throws IOException
  {
    write(root, "proc/self/cgroup", "0::/parent/docker/abc\n");
    write(root, "sys/fs/cgroup/parent/cpu.max", "50000 100000");
    write(root, "sys/fs/cgroup/parent/docker/abc/cpu.max", "max 100000");
    assertEquals(0.5, new CpuAllowance(root).quotaCores(), 1e-12);
  }

  @Test
  void noCgroupOrGarbageMeansNoQuota(@TempDir Path root) throws IOException
  {
    assertEquals(Double.POSITIVE_INFINITY, new CpuAllowance(root).quotaCores());
    write(root, "proc/self/cgroup", "0::/\n");
    write(root, "sys/fs/cgroup/cpu.max", "lots 0");
    assertEquals(Double.POSITIVE_INFINITY, new CpuAllowance(root).quotaCores());
    assertEquals(Runtime.getRuntime().availableProcessors(), new CpuAllowance(root).cores(), 1e-12);
  }

  private static void write(Path root, String file, String text) throws IOException
  {
    final Path path = root.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }
}
