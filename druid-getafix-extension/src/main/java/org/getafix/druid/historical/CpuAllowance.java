package org.getafix.druid.historical;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The CPU this Historical may use, in cores: the tightest CFS quota of its cgroup and the cgroups above it
 * (cgroup v2 {@code cpu.max}, v1 {@code cpu.cfs_quota_us / cpu.cfs_period_us}), and never more than the cores Java
 * sees. Java's own {@code availableProcessors()} rounds a quota up to whole cores, so a Historical capped at 0.25 and
 * one capped at 1.0 would both say 1; the Coordinator needs the fraction to turn CPU time into utilisation
 * (see getafix-core's {@code MeasuredRound}).
 *
 * <p>Read again on every stats report (a few small files, a few times a minute), because a process can be moved
 * into a cgroup or have its quota changed while it runs. Anything unreadable counts as "no quota here".
 */
public final class CpuAllowance
{
  private final Path root;

  /** Reads the real {@code /proc} and {@code /sys/fs/cgroup}. */
  public CpuAllowance()
  {
    this(Path.of("/"));
  }

  /** @param root where {@code proc/self/cgroup} and {@code sys/fs/cgroup} are found (a test's fake file system) */
  CpuAllowance(Path root)
  {
    this.root = root;
  }

  public double cores()
  {
    return Math.min(Runtime.getRuntime().availableProcessors(), quotaCores());
  }

  /** The tightest quota over the cgroup hierarchy of this process, or +∞ when there is none. */
  double quotaCores()
  {
    final List<String> lines;
    try {
      lines = Files.readAllLines(root.resolve("proc/self/cgroup"), StandardCharsets.US_ASCII);
    }
    catch (IOException | RuntimeException e) {
      return Double.POSITIVE_INFINITY;
    }
    double quota = Double.POSITIVE_INFINITY;
    for (String line : lines) {
      // hierarchy-id:controller-list:path
      final String[] parts = line.split(":", 3);
      if (parts.length < 3) {
        continue;
      }
      if (parts[0].equals("0") && parts[1].isEmpty()) {
        quota = Math.min(quota, tightest(root.resolve("sys/fs/cgroup"), parts[2], true));
      } else if (List.of(parts[1].split(",")).contains("cpu")) {
        for (String mount : List.of("sys/fs/cgroup/cpu,cpuacct", "sys/fs/cgroup/cpu")) {
          quota = Math.min(quota, tightest(root.resolve(mount), parts[2], false));
        }
      }
    }
    return quota;
  }

  /**
   * The smallest quota from the cgroup at {@code path} up to the mount point. Inside a container the path names the
   * container's group while the mount point already is that group, so levels that do not exist are skipped.
   */
  private static double tightest(Path mount, String path, boolean v2)
  {
    double quota = Double.POSITIVE_INFINITY;
    Path dir = mount.resolve(path.startsWith("/") ? path.substring(1) : path).normalize();
    while (dir != null && dir.startsWith(mount)) {
      quota = Math.min(quota, v2 ? cpuMax(dir) : cfsQuota(dir));
      dir = dir.getParent();
    }
    return quota;
  }

  private static double cpuMax(Path dir)
  {
    // "max 100000" or "<quota> <period>", both in µs.
    final String[] v = read(dir.resolve("cpu.max")).split("\\s+");
    return v.length == 2 ? ratio(v[0], v[1]) : Double.POSITIVE_INFINITY;
  }

  private static double cfsQuota(Path dir)
  {
    // cpu.cfs_quota_us is -1 when there is no quota.
    return ratio(read(dir.resolve("cpu.cfs_quota_us")), read(dir.resolve("cpu.cfs_period_us")));
  }

  private static double ratio(String quota, String period)
  {
    try {
      final long q = Long.parseLong(quota);
      final long p = Long.parseLong(period);
      return q > 0 && p > 0 ? (double) q / p : Double.POSITIVE_INFINITY;
    }
    catch (NumberFormatException e) {
      return Double.POSITIVE_INFINITY;
    }
  }

  private static String read(Path file)
  {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII).trim();
    }
    catch (IOException | RuntimeException e) {
      return "";
    }
  }
}
