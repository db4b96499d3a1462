package org.getafix.localcluster.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A cgroup v1 CPU controller group that caps the processes in it to a fraction of a core with the CFS bandwidth
 * controller ({@code cpu.cfs_quota_us} / {@code cpu.cfs_period_us}). This is how the launcher gives Historicals
 * different, real CPU capacities on one machine, and how it turns a node into a straggler at runtime.
 *
 * <p>On machines where {@code cpu} and {@code cpuacct} are mounted as separate hierarchies the group is created in both,
 * so that {@link #usageNanos()} measures exactly the processes that the quota applies to.
 */
public final class CpuCgroup implements AutoCloseable
{
  private static final System.Logger LOG = System.getLogger(CpuCgroup.class.getName());

  public static final Path DEFAULT_CPU_ROOT = Paths.get("/sys/fs/cgroup/cpu");
  public static final Path DEFAULT_CPUACCT_ROOT = Paths.get("/sys/fs/cgroup/cpuacct");
  private static final long PERIOD_US = 100_000;

  private final String name;
  private final Path cpuDir;
  private final Path cpuacctDir;
  private volatile double quotaCores;

  private CpuCgroup(String name, Path cpuDir, Path cpuacctDir)
  {
    this.name = name;
    this.cpuDir = cpuDir;
    this.cpuacctDir = cpuacctDir;
    this.quotaCores = -1;
  }

  /**
   * Creates (or reuses, after a crashed run) the group {@code name} under the default cgroup v1 mounts. Returns empty,
   * with the reason logged, when the CPU controller is not there or not writable (no root, cgroup v2 only, ...).
   */
  public static Optional<CpuCgroup> create(String name)
  {
    return create(DEFAULT_CPU_ROOT, DEFAULT_CPUACCT_ROOT, name);
  }

  static Optional<CpuCgroup> create(Path cpuRoot, Path cpuacctRoot, String name)
  {
    if (!Files.isRegularFile(cpuRoot.resolve("cpu.cfs_quota_us"))) {
      LOG.log(System.Logger.Level.WARNING, "No cgroup v1 CPU controller at " + cpuRoot);
      return Optional.empty();
    }
    try {
      final Path cpuDir = Files.createDirectories(cpuRoot.resolve(name));
      Path cpuacctDir = null;
      if (Files.isRegularFile(cpuDir.resolve("cpuacct.usage"))) {
        cpuacctDir = cpuDir;
      } else if (Files.isRegularFile(cpuacctRoot.resolve("cpuacct.usage"))) {
        cpuacctDir = Files.createDirectories(cpuacctRoot.resolve(name));
      }
      final CpuCgroup group = new CpuCgroup(name, cpuDir, cpuacctDir);
      group.setQuota(-1);
      return Optional.of(group);
    }
    catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "cgroup v1 CPU controller at " + cpuRoot + " is not writable: " + e);
      return Optional.empty();
    }
  }

  /**
   * Whether this machine lets the launcher create CPU cgroups (checked by creating and removing a probe group).
   */
  public static boolean isAvailable()
  {
    final Optional<CpuCgroup> probe = create("getafix-probe-" + ProcessHandle.current().pid());
    probe.ifPresent(CpuCgroup::close);
    return probe.isPresent();
  }

  public String name()
  {
    return name;
  }

  /**
   * Caps the group to {@code cores} CPUs (e.g. 0.25); a value {@code <= 0} removes the cap.
   */
  public void setQuota(double cores)
  {
    if (Double.isNaN(cores) || Double.isInfinite(cores)) {
      throw new IllegalArgumentException("CPU quota must be a finite number of cores, got " + cores);
    }
    write(cpuDir.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
    final long quotaUs = cores <= 0 ? -1 : Math.max(1000, Math.round(cores * PERIOD_US));
    write(cpuDir.resolve("cpu.cfs_quota_us"), Long.toString(quotaUs));
    quotaCores = cores <= 0 ? -1 : cores;
  }

  /**
   * Sets the group's CFS weight ({@code cpu.shares}, default 1024) against other groups and processes at its level.
   */
  public void setShares(long shares)
  {
    if (shares < 2) {
      throw new IllegalArgumentException("cpu.shares must be >= 2, got " + shares);
    }
    write(cpuDir.resolve("cpu.shares"), Long.toString(shares));
  }

  /**
   * The current cap in cores, or -1 when unlimited.
   */
  public double quota()
  {
    return quotaCores;
  }

  /**
   * Moves a process (all its threads; threads it starts later inherit the group) into this group.
   */
  public void addProcess(long pid)
  {
    write(cpuDir.resolve("cgroup.procs"), Long.toString(pid));
    if (cpuacctDir != null && !cpuacctDir.equals(cpuDir)) {
      write(cpuacctDir.resolve("cgroup.procs"), Long.toString(pid));
    }
  }

  public List<Long> processes()
  {
    return read(cpuDir.resolve("cgroup.procs")).lines().filter(l -> !l.isBlank()).map(Long::parseLong).toList();
  }

  /**
   * Total CPU time consumed by the processes of this group since it was created, in nanoseconds ({@code cpuacct.usage}),
   * or -1 when the cpuacct controller is not available.
   */
  public long usageNanos()
  {
    return cpuacctDir == null ? -1 : Long.parseLong(read(cpuacctDir.resolve("cpuacct.usage")).trim());
  }

  /**
   * The CFS bandwidth statistics of the group ({@code cpu.stat}).
   */
  public Throttling throttling()
  {
    final Map<String, Long> stat = new HashMap<>();
    read(cpuDir.resolve("cpu.stat")).lines().map(l -> l.split(" ")).filter(kv -> kv.length == 2)
                                       .forEach(kv -> stat.put(kv[0], Long.parseLong(kv[1].trim())));
    return new Throttling(
        stat.getOrDefault("nr_periods", 0L),
        stat.getOrDefault("nr_throttled", 0L),
        stat.getOrDefault("throttled_time", 0L)
    );
  }

  /**
   * Removes the group. Processes still in it (there should be none: the launcher stops them first) are moved back to
   * the root group, because a cgroup with members cannot be removed.
   */
  @Override
  public void close()
  {
    for (Path dir : cpuacctDir == null || cpuacctDir.equals(cpuDir) ? List.of(cpuDir) : List.of(cpuDir, cpuacctDir)) {
      try {
        if (!Files.isDirectory(dir)) {
          continue;
        }
        for (String pid : read(dir.resolve("cgroup.procs")).split("\n")) {
          if (!pid.isBlank()) {
            try {
              write(dir.getParent().resolve("cgroup.procs"), pid.trim());
            }
            catch (RuntimeException e) {
              // the process exited meanwhile
            }
          }
        }
        Files.delete(dir);
      }
      catch (IOException | RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "Could not remove cgroup " + dir + ": " + e);
      }
    }
  }

  public boolean exists()
  {
    return Files.isDirectory(cpuDir);
  }

  private static void write(Path file, String value)
  {
    try {
      Files.writeString(file, value, StandardCharsets.US_ASCII);
    }
    catch (IOException e) {
      throw new IllegalStateException("Cannot write '" + value + "' to " + file + ": " + e, e);
    }
  }

  private static String read(Path file)
  {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    }
    catch (IOException e) {
      throw new IllegalStateException("Cannot read " + file + ": " + e, e);
    }
  }

  /**
   * CFS bandwidth statistics: periods elapsed, periods in which the group was throttled, total throttled time (ns).
   */
  public record Throttling(long periods, long throttledPeriods, long throttledNanos)
  {
    public Throttling minus(Throttling earlier)
    {
      return new Throttling(
          periods - earlier.periods,
          throttledPeriods - earlier.throttledPeriods,
          throttledNanos - earlier.throttledNanos
      );
    }
  }
}
