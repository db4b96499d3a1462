package org.getafix.localcluster.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cgroup file protocol, on a fake cgroup tree in a temp dir (the real controller is exercised by the smoke IT).
 */
class CpuCgroupTest
{
  @Test
  void writesQuotaAndPeriodAndReadsAccounting(@TempDir Path root) throws Exception
  {
    final Path cpu = Files.createDirectories(root.resolve("cpu"));
    final Path cpuacct = Files.createDirectories(root.resolve("cpuacct"));
    Files.writeString(cpu.resolve("cpu.cfs_quota_us"), "-1");
    Files.writeString(cpuacct.resolve("cpuacct.usage"), "0");

    final CpuCgroup group = CpuCgroup.create(cpu, cpuacct, "h1").orElseThrow();
    assertEquals("-1", Files.readString(cpu.resolve("h1/cpu.cfs_quota_us")), "a new group is uncapped");

    group.setQuota(0.25);
    assertEquals("100000", Files.readString(cpu.resolve("h1/cpu.cfs_period_us")));
    assertEquals("25000", Files.readString(cpu.resolve("h1/cpu.cfs_quota_us")));
    assertEquals(0.25, group.quota());

    group.addProcess(4242);
    assertEquals("4242", Files.readString(cpu.resolve("h1/cgroup.procs")));
    assertEquals("4242", Files.readString(cpuacct.resolve("h1/cgroup.procs")), "also accounted in cpuacct");

    Files.writeString(cpuacct.resolve("h1/cpuacct.usage"), "123456789\n");
    assertEquals(123456789L, group.usageNanos());
    Files.writeString(cpu.resolve("h1/cpu.stat"), "nr_periods 10\nnr_throttled 4\nthrottled_time 5000\n");
    assertEquals(new CpuCgroup.Throttling(10, 4, 5000), group.throttling());

    group.setQuota(0);
    assertEquals("-1", Files.readString(cpu.resolve("h1/cpu.cfs_quota_us")));
    assertThrows(IllegalArgumentException.class, () -> group.setQuota(Double.NaN));
  }

  @Test
  void absentControllerMeansNoGroup(@TempDir Path root)
  {
    final Optional<CpuCgroup> group = CpuCgroup.create(root.resolve("cpu"), root.resolve("cpuacct"), "h1");
    assertFalse(group.isPresent());
  }

  @Test
  void throttlingDifference()
  {
    final CpuCgroup.Throttling later = new CpuCgroup.Throttling(100, 30, 9000);
    assertEquals(new CpuCgroup.Throttling(90, 26, 4000), later.minus(new CpuCgroup.Throttling(10, 4, 5000)));
    assertTrue(later.throttledPeriods() > 0);
  }
}
