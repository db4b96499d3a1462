package org.getafix.localcluster.cluster;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a {@link LocalDruidCluster} looks like. Immutable, with value equality, so a shared cluster can tell whether a
 * test asks for the cluster that is already running.
 *
 * @param workDir                 everything of the cluster lives here: configs, logs, metadata, deep storage, caches
 * @param druidLibDir             the Druid runtime classpath (by default {@value #DEFAULT_DRUID_LIB_DIR})
 * @param historicals             number of Historicals
 * @param cpuQuotas               per-Historical CPU cap in cores (cgroup v1), empty for no caps; else one per Historical,
 *                                a value {@code <= 0} meaning uncapped
 * @param extensionDirs           built extension directories ({@code <module>/target/extension/<name>/}) to install
 * @param commonProperties        runtime properties of every Druid node
 * @param roleProperties          runtime properties per role (applied after the common ones)
 * @param historicalProperties    runtime properties of single Historicals, by index (0-based), applied last
 * @param heaps                   -Xmx per role, e.g. "384m"
 * @param peonHeap                -Xmx of ingestion task JVMs forked by the Overlord
 * @param startupTimeout          deadline for the whole cluster to become healthy
 * @param stopGrace               how long a node may take to exit after SIGTERM before it gets SIGKILL
 * @param stockBroker             a second Broker, started and stopped with the cluster; null for none
 */
public record ClusterConfig(
    Path workDir,
    Path druidLibDir,
    int historicals,
    List<Double> cpuQuotas,
    List<Path> extensionDirs,
    Map<String, String> commonProperties,
    Map<DruidRole, Map<String, String>> roleProperties,
    Map<Integer, Map<String, String>> historicalProperties,
    Map<DruidRole, String> heaps,
    String peonHeap,
    Duration startupTimeout,
    Duration stopGrace,
    StockBroker stockBroker
)
{
  /** System property naming the Druid lib dir; set by the integration-tests pom for failsafe. */
  public static final String DRUID_LIB_DIR_PROPERTY = "druid.lib.dir";
  /**
   * Where this module's build assembles the Druid runtime classpath, relative to the repository root: the default when
   * {@value #DRUID_LIB_DIR_PROPERTY} is not set.
   */
  public static final String DEFAULT_DRUID_LIB_DIR = "local-cluster/target/druid/lib";
  /** System property naming the default work dir; set by the integration-tests pom for failsafe. */
  public static final String WORK_DIR_PROPERTY = "getafix.cluster.workDir";

  public ClusterConfig
  {
    Objects.requireNonNull(workDir, "workDir");
    Objects.requireNonNull(druidLibDir, "druidLibDir");
    if (historicals < 1) {
      throw new IllegalArgumentException("historicals must be >= 1, got " + historicals);
    }
    if (!cpuQuotas.isEmpty() && cpuQuotas.size() != historicals) {
      throw new IllegalArgumentException(
          "cpuQuotas must be empty or have one value per Historical (" + historicals + "), got " + cpuQuotas
      );
    }
    for (Double quota : cpuQuotas) {
      if (quota == null || quota.isNaN() || quota.isInfinite()) {
        throw new IllegalArgumentException("CPU quota must be a finite number of cores, got " + quota);
      }
    }
    for (Integer index : historicalProperties.keySet()) {
      if (index < 0 || index >= historicals) {
        throw new IllegalArgumentException("historicalProperties index " + index + " is not a Historical (0.." + (historicals - 1) + ")");
      }
    }
    workDir = workDir.toAbsolutePath().normalize();
    druidLibDir = druidLibDir.toAbsolutePath().normalize();
    cpuQuotas = List.copyOf(cpuQuotas);
    extensionDirs = extensionDirs.stream().map(p -> p.toAbsolutePath().normalize()).toList();
    commonProperties = Collections.unmodifiableMap(new LinkedHashMap<>(commonProperties));
    final Map<DruidRole, Map<String, String>> roles = new EnumMap<>(DruidRole.class);
    roleProperties.forEach((role, props) -> roles.put(role, Collections.unmodifiableMap(new LinkedHashMap<>(props))));
    roleProperties = Collections.unmodifiableMap(roles);
    final Map<Integer, Map<String, String>> perHistorical = new LinkedHashMap<>();
    historicalProperties.forEach((i, props) -> perHistorical.put(i, Collections.unmodifiableMap(new LinkedHashMap<>(props))));
    historicalProperties = Collections.unmodifiableMap(perHistorical);
    heaps = Collections.unmodifiableMap(new EnumMap<>(heaps));
    if (stockBroker != null) {
      final List<String> installed = extensionDirs.stream().map(dir -> dir.getFileName().toString()).toList();
      for (String left : stockBroker.withoutExtensions()) {
        if (!installed.contains(left)) {
          throw new IllegalArgumentException(
              "the stock Broker leaves out extension " + left + ", which is not installed; installed: " + installed
          );
        }
      }
    }
  }

  /**
   * A second Broker beside the cluster's own, on its own port and over the same Historicals, to compare the first
   * against, e.g. one without the quality monitor: the first Broker's runtime properties, but for the extensions it
   * leaves out of {@code druid.extensions.loadList}, with its own on top. Immutable.
   *
   * @param withoutExtensions installed extensions (by directory name) it does not load
   * @param properties        its own runtime properties, applied last
   */
  public record StockBroker(List<String> withoutExtensions, Map<String, String> properties)
  {
    public StockBroker
    {
      withoutExtensions = List.copyOf(withoutExtensions);
      properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }
  }

  /**
   * A builder with defaults sized for a 2-core machine: 3 Historicals, small heaps and processing buffers, the Druid lib
   * and work dirs from the system properties the integration-tests pom sets.
   */
  public static Builder builder()
  {
    return new Builder();
  }

  public Builder toBuilder()
  {
    final Builder builder = new Builder()
        .workDir(workDir)
        .druidLibDir(druidLibDir)
        .historicals(historicals)
        .cpuQuotas(cpuQuotas)
        .peonHeap(peonHeap)
        .startupTimeout(startupTimeout)
        .stopGrace(stopGrace)
        .stockBroker(stockBroker);
    extensionDirs.forEach(builder::extension);
    builder.commonProperties.putAll(commonProperties);
    roleProperties.forEach((role, props) -> builder.roleProperties.get(role).putAll(props));
    historicalProperties.forEach((i, props) -> builder.historicalProperties.computeIfAbsent(i, k -> new LinkedHashMap<>()).putAll(props));
    builder.heaps.putAll(heaps);
    return builder;
  }

  public double cpuQuota(int historicalIndex)
  {
    return cpuQuotas.isEmpty() ? -1 : cpuQuotas.get(historicalIndex);
  }

  public static final class Builder
  {
    private Path workDir = Paths.get(System.getProperty(WORK_DIR_PROPERTY, "target/druid-cluster"));
    private Path druidLibDir = Paths.get(System.getProperty(DRUID_LIB_DIR_PROPERTY, DEFAULT_DRUID_LIB_DIR));
    private int historicals = 3;
    private List<Double> cpuQuotas = List.of();
    private final List<Path> extensionDirs = new ArrayList<>();
    private final Map<String, String> commonProperties = new LinkedHashMap<>();
    private final Map<DruidRole, Map<String, String>> roleProperties = new EnumMap<>(DruidRole.class);
    private final Map<Integer, Map<String, String>> historicalProperties = new LinkedHashMap<>();
    private final Map<DruidRole, String> heaps = new EnumMap<>(DruidRole.class);
    private String peonHeap = "512m";
    private Duration startupTimeout = Duration.ofMinutes(6);
    private Duration stopGrace = Duration.ofSeconds(40);
    private StockBroker stockBroker;

    private Builder()
    {
      for (DruidRole role : DruidRole.values()) {
        roleProperties.put(role, new LinkedHashMap<>());
      }
      heaps.put(DruidRole.COORDINATOR, "512m");
      heaps.put(DruidRole.BROKER, "512m");
      heaps.put(DruidRole.HISTORICAL, "384m");
    }

    public Builder workDir(Path workDir)
    {
      this.workDir = workDir;
      return this;
    }

    public Builder druidLibDir(Path druidLibDir)
    {
      this.druidLibDir = druidLibDir;
      return this;
    }

    public Builder historicals(int historicals)
    {
      this.historicals = historicals;
      return this;
    }

    public Builder cpuQuotas(List<Double> cpuQuotas)
    {
      this.cpuQuotas = List.copyOf(cpuQuotas);
      return this;
    }

    public Builder cpuQuotas(double... cpuQuotas)
    {
      this.cpuQuotas = java.util.Arrays.stream(cpuQuotas).boxed().toList();
      return this;
    }

    /**
     * Installs a built extension directory, e.g. {@code druid-getafix-extension/target/extension/druid-getafix-extension};
     * its directory name is the extension name put in {@code druid.extensions.loadList}.
     */
    public Builder extension(Path extensionDir)
    {
      extensionDirs.add(extensionDir);
      return this;
    }

    public Builder commonProperty(String key, String value)
    {
      commonProperties.put(key, value);
      return this;
    }

    public Builder property(DruidRole role, String key, String value)
    {
      roleProperties.get(role).put(key, value);
      return this;
    }

    /**
     * A runtime property of one Historical only (0-based index).
     */
    public Builder historicalProperty(int historicalIndex, String key, String value)
    {
      historicalProperties.computeIfAbsent(historicalIndex, k -> new LinkedHashMap<>()).put(key, value);
      return this;
    }

    public Builder heap(DruidRole role, String xmx)
    {
      heaps.put(role, xmx);
      return this;
    }

    public Builder peonHeap(String xmx)
    {
      this.peonHeap = xmx;
      return this;
    }

    public Builder startupTimeout(Duration startupTimeout)
    {
      this.startupTimeout = startupTimeout;
      return this;
    }

    public Builder stopGrace(Duration stopGrace)
    {
      this.stopGrace = stopGrace;
      return this;
    }

    /** A second Broker as {@code stockBroker} describes it; null for none, the default. */
    public Builder stockBroker(StockBroker stockBroker)
    {
      this.stockBroker = stockBroker;
      return this;
    }

    public ClusterConfig build()
    {
      return new ClusterConfig(
          workDir,
          druidLibDir,
          historicals,
          cpuQuotas,
          extensionDirs,
          commonProperties,
          roleProperties,
          historicalProperties,
          heaps,
          peonHeap,
          startupTimeout,
          stopGrace,
          stockBroker
      );
    }
  }
}
