package org.getafix.localcluster.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.localcluster.client.BrokerClient;
import org.getafix.localcluster.client.CoordinatorClient;
import org.getafix.localcluster.client.DruidHttp;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A real multi-process Druid cluster on localhost: one ZooKeeper, a Coordinator that also runs the Overlord (Derby
 * metadata, local deep storage, ingestion tasks forked as peon JVMs), a Broker and N Historicals, each Historical with
 * its own port, segment cache, runtime properties and, where cgroup v1 is writable, its own CPU cgroup; and, if the
 * config asks for one, a second Broker ({@link ClusterConfig.StockBroker}) with its own port and properties.
 *
 * <p>Every JVM is started with {@code -Dgetafix.cluster.dir=<workDir>}, so that {@link #close()}, the JVM shutdown hook
 * and the next {@link #start} can find and kill whatever a crashed run left behind. Each start uses a fresh run
 * directory {@code <workDir>/run-<timestamp>} (config, logs, metadata, deep storage, segment caches); data of older runs
 * is deleted at start, their logs are kept.
 *
 * <p>The {@link #main} method is a small CLI; see {@code integration-tests/README.md}.
 */
public final class LocalDruidCluster implements AutoCloseable
{
  private static final System.Logger LOG = System.getLogger(LocalDruidCluster.class.getName());

  /** System property on every JVM of a cluster naming its work dir; identifies the cluster's processes. */
  public static final String MARKER_PROPERTY = "getafix.cluster.dir";
  /** The Broker's {@code druid.broker.http.numConnections}, its connections to each Historical, unless configured. */
  public static final int BROKER_CONNECTIONS = 10;
  /** The Historicals' {@code druid.server.http.numThreads}, the requests each serves at once, unless configured. */
  public static final int HISTORICAL_HTTP_THREADS = 10;

  private static final String MAIN_CLASS = "org.apache.druid.cli.Main";
  private static final String ZOOKEEPER_MAIN_CLASS = "org.apache.zookeeper.server.ZooKeeperServerMain";
  private static final List<String> MODULE_FLAGS = List.of(
      "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
      "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=jdk.management/com.sun.management.internal=ALL-UNNAMED"
  );
  private static final long HISTORICAL_CPU_SHARES = 32 * 1024;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Set<LocalDruidCluster> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(
        () -> List.copyOf(LIVE).forEach(LocalDruidCluster::close),
        "getafix-cluster-shutdown"
    ));
  }

  private final ClusterConfig config;
  private final Path runDir;
  private final DruidHttp http = DruidHttp.shared();
  private final List<CpuCgroup> cgroups = new ArrayList<>();
  private final Set<Integer> reservedPorts = new HashSet<>();
  private LocalNode zooKeeper;
  private LocalNode coordinator;
  private LocalNode broker;
  /** The second Broker, null unless the config asks for one. */
  private LocalNode stockBroker;
  /** The Broker's runtime properties as started, so that {@link #restartBroker} can apply overrides on top of them. */
  private Map<String, String> brokerProperties;
  /** The Coordinator's, likewise, for {@link #restartCoordinator}. */
  private Map<String, String> coordinatorProperties;
  private final List<LocalNode> historicals = new ArrayList<>();
  private boolean cgroupsEnabled;
  private Duration startupTime;
  private volatile boolean closed;

  private LocalDruidCluster(ClusterConfig config, Path runDir)
  {
    this.config = config;
    this.runDir = runDir;
  }

  /**
   * Starts a cluster and waits until every node is healthy, the Coordinator sees all Historicals and the Broker has
   * synced its view. On failure everything started so far is torn down and the exception names the node and its log.
   */
  public static LocalDruidCluster start(ClusterConfig config) throws IOException, TimeoutException
  {
    if (!hasDruidServices(config.druidLibDir())) {
      throw new IllegalStateException(
          "No Druid runtime classpath at " + config.druidLibDir()
          + ": build it with ./mvnw -B -pl local-cluster -am process-test-resources (or pass -Ddruid.lib.dir)"
      );
    }
    reapProcesses(config.workDir());
    Files.createDirectories(config.workDir());
    deleteOldRunData(config.workDir());
    final Path runDir = config.workDir().resolve(
        "run-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"))
    );
    final LocalDruidCluster cluster = new LocalDruidCluster(config, runDir);
    LIVE.add(cluster);
    try {
      cluster.startNodes();
      return cluster;
    }
    catch (IOException | TimeoutException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  private static boolean hasDruidServices(Path libDir)
  {
    try (Stream<Path> files = Files.list(libDir)) {
      return files.anyMatch(p -> p.getFileName().toString().startsWith("druid-services-"));
    }
    catch (IOException e) {
      return false;
    }
  }

  private void startNodes() throws IOException, TimeoutException
  {
    final long startNanos = System.nanoTime();
    Files.createDirectories(runDir);
    final List<String> extensionNames = installExtensions();

    final int zkPort = freePort();
    final int derbyPort = freePort();
    final int coordinatorPort = freePort();
    final int brokerPort = freePort();
    final int peonStartPort = freePort();

    final Map<String, String> common = new LinkedHashMap<>();
    common.put("druid.host", "localhost");
    common.put("druid.extensions.directory", runDir.resolve("extensions").toString());
    common.put("druid.extensions.hadoopDependenciesDir", runDir.resolve("hadoop-dependencies").toString());
    common.put("druid.extensions.loadList", toJson(extensionNames));
    common.put("druid.startup.logging.logProperties", "true");
    common.put("druid.zk.service.host", "localhost:" + zkPort);
    common.put("druid.zk.paths.base", "/druid");
    common.put("druid.metadata.storage.type", "derby");
    common.put(
        "druid.metadata.storage.connector.connectURI",
        "jdbc:derby://localhost:" + derbyPort + "/" + runDir.resolve("var/metadata/metadata.db") + ";create=true"
    );
    common.put("druid.metadata.storage.connector.host", "localhost");
    common.put("druid.metadata.storage.connector.port", Integer.toString(derbyPort));
    common.put("druid.storage.type", "local");
    common.put("druid.storage.storageDirectory", runDir.resolve("var/deep-storage").toString());
    common.put("druid.indexer.logs.type", "file");
    common.put("druid.indexer.logs.directory", runDir.resolve("var/indexing-logs").toString());
    common.put("druid.selectors.indexing.serviceName", "druid/overlord");
    common.put("druid.selectors.coordinator.serviceName", "druid/coordinator");
    common.put("druid.monitoring.monitors", "[]");
    common.put("druid.emitter", "noop");
    common.put("druid.indexing.doubleStorage", "double");
    common.put("druid.sql.enable", "true");
    common.put("druid.lookup.enableLookupSyncOnStartup", "false");
    common.put("druid.expressions.useStrictBooleans", "true");
    common.putAll(config.commonProperties());

    final Map<String, String> coordinatorProps = new LinkedHashMap<>(common);
    coordinatorProps.put("druid.service", DruidRole.COORDINATOR.serviceName());
    coordinatorProps.put("druid.plaintextPort", Integer.toString(coordinatorPort));
    coordinatorProps.put("druid.server.http.numThreads", "12");
    coordinatorProps.put("druid.coordinator.startDelay", "PT5S");
    coordinatorProps.put("druid.coordinator.period", "PT5S");
    coordinatorProps.put("druid.manager.segments.pollDuration", "PT5S");
    coordinatorProps.put("druid.coordinator.asOverlord.enabled", "true");
    coordinatorProps.put("druid.coordinator.asOverlord.overlordService", "druid/overlord");
    coordinatorProps.put("druid.indexer.queue.startDelay", "PT1S");
    coordinatorProps.put("druid.indexer.storage.type", "metadata");
    // The Overlord forks each task as a peon JVM: no MiddleManager or Indexer JVM is kept running.
    coordinatorProps.put("druid.indexer.runner.type", "local");
    coordinatorProps.put("druid.worker.capacity", "2");
    coordinatorProps.put("druid.indexer.runner.startPort", Integer.toString(peonStartPort));
    coordinatorProps.put("druid.indexer.runner.endPort", Integer.toString(Math.min(65535, peonStartPort + 200)));
    coordinatorProps.put("druid.indexer.runner.javaOptsArray", toJson(peonJvmOptions()));
    coordinatorProps.put("druid.indexer.task.baseTaskDir", runDir.resolve("var/task").toString());
    coordinatorProps.put("druid.indexer.task.hadoopWorkingPath", runDir.resolve("var/hadoop-tmp").toString());
    coordinatorProps.put("druid.indexer.fork.property.druid.service", "druid/peon");
    coordinatorProps.put("druid.indexer.fork.property.druid.processing.buffer.sizeBytes", "32MiB");
    coordinatorProps.put("druid.indexer.fork.property.druid.processing.numThreads", "1");
    coordinatorProps.put("druid.indexer.fork.property.druid.processing.numMergeBuffers", "2");
    coordinatorProps.putAll(config.roleProperties().getOrDefault(DruidRole.COORDINATOR, Map.of()));
    coordinatorProperties = Map.copyOf(coordinatorProps);

    final Map<String, String> brokerProps = new LinkedHashMap<>(common);
    brokerProps.put("druid.service", DruidRole.BROKER.serviceName());
    brokerProps.put("druid.plaintextPort", Integer.toString(brokerPort));
    brokerProps.put("druid.server.http.numThreads", "16");
    brokerProps.put("druid.broker.http.numConnections", Integer.toString(BROKER_CONNECTIONS));
    brokerProps.put("druid.processing.buffer.sizeBytes", "32MiB");
    brokerProps.put("druid.processing.numMergeBuffers", "2");
    brokerProps.put("druid.processing.numThreads", "1");
    brokerProps.put("druid.broker.cache.useCache", "false");
    brokerProps.put("druid.broker.cache.populateCache", "false");
    brokerProps.putAll(config.roleProperties().getOrDefault(DruidRole.BROKER, Map.of()));
    brokerProperties = Map.copyOf(brokerProps);

    zooKeeper = zooKeeperNode(zkPort);
    coordinator = druidNode("coordinator", DruidRole.COORDINATOR, coordinatorPort, coordinatorProps, null);
    broker = druidNode("broker", DruidRole.BROKER, brokerPort, brokerProps, null);
    if (config.stockBroker() != null) {
      final int port = freePort();
      stockBroker = druidNode(
          "stock-broker",
          DruidRole.BROKER,
          port,
          stockBrokerProperties(brokerProps, extensionNames, config.stockBroker(), port),
          null
      );
    }

    cgroupsEnabled = !config.cpuQuotas().isEmpty() && CpuCgroup.isAvailable();
    if (!config.cpuQuotas().isEmpty() && !cgroupsEnabled) {
      LOG.log(
          System.Logger.Level.WARNING,
          "cgroup v1 CPU controller is not writable here: Historicals run WITHOUT real CPU caps " + config.cpuQuotas()
          + "; falling back to druid.processing.numThreads proportional to the quotas"
      );
    }
    final String cgroupPrefix = "getafix-" + Integer.toHexString(config.workDir().toString().hashCode());
    for (int i = 0; i < config.historicals(); i++) {
      final int port = freePort();
      final String name = "historical-" + (i + 1);
      final Path nodeDir = runDir.resolve("nodes").resolve(name);
      final Map<String, String> props = new LinkedHashMap<>(common);
      props.put("druid.service", DruidRole.HISTORICAL.serviceName());
      props.put("druid.plaintextPort", Integer.toString(port));
      props.put("druid.server.http.numThreads", Integer.toString(HISTORICAL_HTTP_THREADS));
      props.put("druid.processing.buffer.sizeBytes", "32MiB");
      props.put("druid.processing.numMergeBuffers", "2");
      props.put("druid.processing.numThreads", "2");
      props.put("druid.segmentCache.locations", "[{\"path\":\"" + nodeDir.resolve("segment-cache") + "\",\"maxSize\":\"2g\"}]");
      props.put("druid.server.maxSize", "2g");
      props.put("druid.historical.cache.useCache", "false");
      props.put("druid.historical.cache.populateCache", "false");
      if (!config.cpuQuotas().isEmpty() && !cgroupsEnabled) {
        props.put("druid.processing.numThreads", Integer.toString(fallbackProcessingThreads(config.cpuQuota(i))));
      }
      props.putAll(config.roleProperties().getOrDefault(DruidRole.HISTORICAL, Map.of()));
      props.putAll(config.historicalProperties().getOrDefault(i, Map.of()));
      CpuCgroup cgroup = null;
      if (cgroupsEnabled) {
        cgroup = CpuCgroup.create(cgroupPrefix + "-" + name)
                          .orElseThrow(() -> new IllegalStateException("Could not create the CPU cgroup of " + name));
        cgroups.add(cgroup);
        // A high weight makes the quota, not other load on the machine (builds, the Broker), what limits a Historical.
        cgroup.setShares(HISTORICAL_CPU_SHARES);
      }
      historicals.add(druidNode(name, DruidRole.HISTORICAL, port, props, cgroup));
    }

    final Duration timeout = config.startupTimeout();
    final long deadline = System.nanoTime() + timeout.toNanos();
    zooKeeper.start();
    zooKeeper.awaitHealthy(remaining(deadline));
    coordinator.start();
    broker.start();
    if (stockBroker != null) {
      stockBroker.start();
    }
    for (LocalNode historical : historicals) {
      historical.start();
    }
    for (LocalNode node : druidNodes()) {
      node.awaitHealthy(remaining(deadline));
    }
    // Caps are applied once the JVMs are up: a 0.25-core JVM would otherwise take minutes to start.
    if (cgroupsEnabled) {
      for (int i = 0; i < historicals.size(); i++) {
        setCpuQuota(i, config.cpuQuota(i));
      }
    }
    awaitClusterView(remaining(deadline));
    startupTime = Duration.ofNanos(System.nanoTime() - startNanos);
    LOG.log(System.Logger.Level.INFO, "Druid cluster up in " + startupTime.toSeconds() + " s: " + describe());
  }

  private void awaitClusterView(Duration timeout) throws TimeoutException
  {
    final Set<String> expected = historicalHosts();
    Waits.await(
        "the Coordinator to see all Historicals and the Brokers to sync",
        timeout,
        () -> coordinatorClient().historicalServers().containsAll(expected)
              && brokerClient().isInitialized()
              && (stockBroker == null || stockBrokerClient().isInitialized())
    );
  }

  /**
   * The stock Broker's runtime properties: the first Broker's {@code broker}, on its own {@code port}, loading the
   * installed {@code extensions} but those {@code stock} leaves out, with its own properties on top.
   */
  static Map<String, String> stockBrokerProperties(
      Map<String, String> broker,
      List<String> extensions,
      ClusterConfig.StockBroker stock,
      int port
  )
  {
    final Map<String, String> props = new LinkedHashMap<>(broker);
    props.put("druid.plaintextPort", Integer.toString(port));
    props.put(
        "druid.extensions.loadList",
        toJson(extensions.stream().filter(name -> !stock.withoutExtensions().contains(name)).toList())
    );
    props.putAll(stock.properties());
    return props;
  }

  private static Duration remaining(long deadlineNanos)
  {
    return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
  }

  /**
   * Processing threads a Historical gets when its CPU quota cannot be enforced with a cgroup: one per quarter core.
   */
  static int fallbackProcessingThreads(double cpuQuota)
  {
    return cpuQuota <= 0 ? 4 : Math.max(1, (int) Math.round(cpuQuota * 4));
  }

  private List<String> installExtensions() throws IOException
  {
    final Path extensionsDir = Files.createDirectories(runDir.resolve("extensions"));
    Files.createDirectories(runDir.resolve("hadoop-dependencies"));
    final List<String> names = new ArrayList<>();
    for (Path source : config.extensionDirs()) {
      if (!Files.isDirectory(source)) {
        throw new IllegalArgumentException(
            "Extension directory " + source + " does not exist; build it first (./mvnw -B package of its module)"
        );
      }
      final String name = source.getFileName().toString();
      final Path target = extensionsDir.resolve(name);
      try (Stream<Path> files = Files.walk(source)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          final Path dest = target.resolve(source.relativize(file).toString());
          if (Files.isDirectory(file)) {
            Files.createDirectories(dest);
          } else {
            Files.copy(file, dest, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
      names.add(name);
    }
    return names;
  }

  private LocalNode zooKeeperNode(int port) throws IOException
  {
    final Path nodeDir = runDir.resolve("nodes/zookeeper");
    final Path conf = writeConf(nodeDir, Map.of());
    final List<String> command = new ArrayList<>();
    command.add(javaCommand());
    command.add("-Xmx128m");
    command.add("-XX:+UseSerialGC");
    command.add("-Dzookeeper.admin.enableServer=false");
    command.add("-Dzookeeper.4lw.commands.whitelist=ruok");
    command.add("-Djava.io.tmpdir=" + Files.createDirectories(nodeDir.resolve("tmp")));
    command.add("-D" + MARKER_PROPERTY + "=" + config.workDir());
    command.add("-cp");
    command.add(conf + ":" + config.druidLibDir().resolve("*"));
    command.add(ZOOKEEPER_MAIN_CLASS);
    command.add(Integer.toString(port));
    command.add(Files.createDirectories(nodeDir.resolve("data")).toString());
    return new LocalNode("zookeeper", null, port, command, runDir.resolve("logs/zookeeper.log"), null, null);
  }

  private LocalNode druidNode(String name, DruidRole role, int port, Map<String, String> props, CpuCgroup cgroup)
      throws IOException
  {
    final Path nodeDir = runDir.resolve("nodes").resolve(name);
    final Path tmp = Files.createDirectories(nodeDir.resolve("tmp"));
    final Map<String, String> nodeProps = new LinkedHashMap<>(props);
    nodeProps.putIfAbsent("druid.processing.tmpDir", nodeDir.resolve("processing-tmp").toString());
    // A Historical logs every query it ran, with its outcome: tests read whether a sub-query was cancelled.
    final Path requestLogDir = role == DruidRole.HISTORICAL ? nodeDir.resolve("request-logs") : null;
    if (requestLogDir != null) {
      nodeProps.putIfAbsent("druid.request.logging.type", "file");
      nodeProps.putIfAbsent("druid.request.logging.dir", requestLogDir.toString());
    }
    final Path conf = writeConf(nodeDir, nodeProps);
    final List<String> command = new ArrayList<>();
    command.add(javaCommand());
    command.add("-Xms" + config.heaps().get(role));
    command.add("-Xmx" + config.heaps().get(role));
    command.add("-XX:MaxDirectMemorySize=256m");
    command.addAll(commonJvmOptions(tmp));
    command.add("-Dgetafix.node=" + name);
    // Every pause with its time of day, beside the node's log: a query that stalled can be matched against them.
    command.add("-Xlog:gc:file=" + runDir.resolve("logs/gc-" + name + ".log") + ":time,uptime");
    command.add("-cp");
    command.add(conf + ":" + config.druidLibDir().resolve("*"));
    command.add(MAIN_CLASS);
    command.add("server");
    command.add(role.command());
    return new LocalNode(name, role, port, command, runDir.resolve("logs").resolve(name + ".log"), requestLogDir, cgroup);
  }

  private List<String> commonJvmOptions(Path tmp)
  {
    final List<String> options = new ArrayList<>();
    options.add("-XX:+UseSerialGC");
    options.add("-XX:+ExitOnOutOfMemoryError");
    options.add("-Duser.timezone=UTC");
    options.add("-Dfile.encoding=UTF-8");
    options.add("-Djava.io.tmpdir=" + tmp);
    options.add("-Djava.util.logging.manager=org.apache.logging.log4j.jul.LogManager");
    options.add("-Dlog4j.shutdownCallbackRegistry=org.apache.druid.common.config.Log4jShutdown");
    options.add("-Dlog4j.shutdownHookEnabled=true");
    options.add("-D" + MARKER_PROPERTY + "=" + config.workDir());
    options.addAll(MODULE_FLAGS);
    return options;
  }

  private List<String> peonJvmOptions() throws IOException
  {
    final List<String> options = new ArrayList<>();
    options.add("-Xms" + config.peonHeap());
    options.add("-Xmx" + config.peonHeap());
    options.add("-XX:MaxDirectMemorySize=256m");
    options.addAll(commonJvmOptions(Files.createDirectories(runDir.resolve("nodes/peons/tmp"))));
    options.add("-Dgetafix.node=peon");
    // ForkingTaskRunner adds the module flags itself on Java 11+.
    options.removeAll(MODULE_FLAGS);
    return options;
  }

  private Path writeConf(Path nodeDir, Map<String, String> props) throws IOException
  {
    final Path conf = Files.createDirectories(nodeDir.resolve("conf"));
    final Properties properties = new Properties();
    properties.putAll(props);
    try (var out = Files.newBufferedWriter(conf.resolve("runtime.properties"), StandardCharsets.UTF_8)) {
      properties.store(out, "written by org.getafix.localcluster.cluster.LocalDruidCluster");
    }
    try (InputStream log4j = LocalDruidCluster.class.getResourceAsStream("log4j2.xml")) {
      if (log4j == null) {
        throw new IllegalStateException("log4j2.xml resource missing from the launcher");
      }
      Files.copy(log4j, conf.resolve("log4j2.xml"), StandardCopyOption.REPLACE_EXISTING);
    }
    return conf;
  }

  private static String javaCommand()
  {
    return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  }

  private int freePort() throws IOException
  {
    while (true) {
      try (ServerSocket socket = new ServerSocket(0)) {
        socket.setReuseAddress(true);
        final int port = socket.getLocalPort();
        // Peons take ports from startPort upwards: keep some room below 65535, and never hand out a port twice.
        if (port < 65000 && reservedPorts.add(port)) {
          return port;
        }
      }
    }
  }

  private static String toJson(Object value)
  {
    try {
      return MAPPER.writeValueAsString(value);
    }
    catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- accessors

  public ClusterConfig config()
  {
    return config;
  }

  /**
   * The directory of this run: {@code conf}, {@code logs}, metadata and caches of all nodes.
   */
  public Path runDir()
  {
    return runDir;
  }

  public Path logDir()
  {
    return runDir.resolve("logs");
  }

  public LocalNode zooKeeper()
  {
    return zooKeeper;
  }

  public LocalNode coordinator()
  {
    return coordinator;
  }

  public LocalNode broker()
  {
    return broker;
  }

  /** The second Broker, if the config asks for one ({@link ClusterConfig#stockBroker()}). */
  public Optional<LocalNode> stockBroker()
  {
    return Optional.ofNullable(stockBroker);
  }

  public List<LocalNode> historicals()
  {
    return List.copyOf(historicals);
  }

  /** The Historicals' process ids, in {@link #historicals()} order: what {@link JitCompilerCpu} reads. */
  public List<Long> historicalPids()
  {
    return historicals.stream().map(LocalNode::pid).toList();
  }

  /**
   * Puts {@code load} on the cluster in windows until the Historicals' JIT compilers have settled, as {@code warmUp}
   * says, so that what is measured next is the queries and not the compilation of their code paths. Where /proc cannot
   * tell (not Linux), runs no window.
   */
  public JitCompilerCpu.Settling warmUntilSettled(JitCompilerCpu.WarmUp warmUp, JitCompilerCpu.LoadWindow load)
      throws Exception
  {
    return JitCompilerCpu.ofThisMachine().warmUntilSettled(historicalPids(), warmUp, load);
  }

  /**
   * The Historical at {@code index} (0-based; its node name is {@code historical-(index+1)}).
   */
  public LocalNode historical(int index)
  {
    return historicals.get(index);
  }

  public CoordinatorClient coordinatorClient()
  {
    return new CoordinatorClient(coordinator.uri(), http);
  }

  public BrokerClient brokerClient()
  {
    return new BrokerClient(broker.uri(), http);
  }

  /**
   * The second Broker's client.
   *
   * @throws IllegalStateException where the cluster has no second Broker
   */
  public BrokerClient stockBrokerClient()
  {
    if (stockBroker == null) {
      throw new IllegalStateException("this cluster has no stock Broker: ClusterConfig.Builder.stockBroker asks for one");
    }
    return new BrokerClient(stockBroker.uri(), http);
  }

  /**
   * Whether Historicals run in CPU cgroups with real caps (false where cgroups are not writable, or no quotas asked).
   */
  public boolean cgroupsEnabled()
  {
    return cgroupsEnabled;
  }

  /**
   * Wall time from launch to a healthy cluster.
   */
  public Duration startupTime()
  {
    return startupTime;
  }

  public boolean isClosed()
  {
    return closed;
  }

  // ---- runtime control

  /**
   * Changes the CPU cap of a Historical at runtime, e.g. to turn it into a straggler; {@code cores <= 0} uncaps it.
   *
   * @throws IllegalStateException where the cluster runs without cgroups
   */
  public void setCpuQuota(int historicalIndex, double cores)
  {
    final LocalNode node = historical(historicalIndex);
    node.cgroup()
        .orElseThrow(() -> new IllegalStateException(
            node.name() + " has no CPU cgroup (cgroups " + (cgroupsEnabled ? "enabled" : "not available or no quotas configured") + ")"
        ))
        .setQuota(cores);
    LOG.log(System.Logger.Level.INFO, "CPU quota of " + node.name() + " set to " + (cores <= 0 ? "unlimited" : cores + " cores"));
  }

  /**
   * Kills a Historical with SIGKILL (a crash, as for a "dead Historical" test); returns when the process is gone.
   */
  public void killHistorical(int historicalIndex)
  {
    historical(historicalIndex).kill();
  }

  /**
   * Stops a Historical gracefully (SIGTERM, SIGKILL after the grace period).
   */
  public void stopHistorical(int historicalIndex)
  {
    historical(historicalIndex).stop(config.stopGrace());
  }

  /**
   * (Re)starts a stopped or killed Historical with the same port, segment cache and cgroup, and waits until it is healthy
   * and the Coordinator sees it again.
   */
  public void restartHistorical(int historicalIndex, Duration timeout) throws IOException, TimeoutException
  {
    final LocalNode node = historical(historicalIndex);
    if (node.isAlive()) {
      node.stop(config.stopGrace());
    }
    final long deadline = System.nanoTime() + timeout.toNanos();
    // As at cluster start, the JVM boots uncapped and gets its cap back once it is healthy.
    final double quota = node.cgroup().map(CpuCgroup::quota).orElse(-1.0);
    node.cgroup().ifPresent(g -> g.setQuota(-1));
    try {
      node.start();
      node.awaitHealthy(remaining(deadline));
    }
    finally {
      node.cgroup().ifPresent(g -> g.setQuota(quota));
    }
    Waits.await(
        "the Coordinator to see " + node.name() + " again",
        remaining(deadline),
        () -> coordinatorClient().historicalServers().contains(node.hostAndPort())
    );
  }

  /**
   * Restarts the Broker on the same port with {@code overrides} on top of the properties it was first started with
   * (an empty map restores those), e.g. to compare {@code druid.broker.balancer.type}s on one cluster. Returns once
   * the new Broker is healthy and has synced its view of the Historicals. Note that {@link #config()} does not change:
   * a caller that overrides should restore the Broker before handing the cluster on.
   */
  public synchronized void restartBroker(Map<String, String> overrides, Duration timeout) throws IOException, TimeoutException
  {
    final long deadline = System.nanoTime() + timeout.toNanos();
    broker = restarted(broker, DruidRole.BROKER, brokerProperties, overrides);
    broker.awaitHealthy(remaining(deadline));
    Waits.await("the restarted Broker to sync its view", remaining(deadline), () -> brokerClient().isInitialized());
    LOG.log(System.Logger.Level.INFO, "Broker restarted with " + overrides);
  }

  /**
   * Restarts the Coordinator/Overlord on the same port with {@code overrides} on top of the properties it was first
   * started with (an empty map restores those). Returns once it is healthy and sees every Historical; throws, with the
   * tail of its log, if it exits first, as it does on a configuration it refuses. The same caveat as
   * {@link #restartBroker} applies to {@link #config()}.
   */
  public synchronized void restartCoordinator(Map<String, String> overrides, Duration timeout)
      throws IOException, TimeoutException
  {
    final long deadline = System.nanoTime() + timeout.toNanos();
    coordinator = restarted(coordinator, DruidRole.COORDINATOR, coordinatorProperties, overrides);
    coordinator.awaitHealthy(remaining(deadline));
    final Set<String> expected = historicalHosts();
    Waits.await(
        "the restarted Coordinator to see every Historical",
        remaining(deadline),
        () -> coordinatorClient().historicalServers().containsAll(expected)
    );
    LOG.log(System.Logger.Level.INFO, "Coordinator restarted with " + overrides);
  }

  /**
   * Stops {@code running} and starts a node of its name and role again on its port, with {@code overrides} on top of
   * {@code properties}; the caller keeps the new node, even if it then fails to become healthy, so that it can be
   * stopped or restarted again.
   */
  private LocalNode restarted(LocalNode running, DruidRole role, Map<String, String> properties, Map<String, String> overrides)
      throws IOException
  {
    running.stop(config.stopGrace());
    final Map<String, String> props = new LinkedHashMap<>(properties);
    props.putAll(overrides);
    final LocalNode node = druidNode(running.name(), role, running.port(), props, null);
    node.start();
    return node;
  }

  private Set<String> historicalHosts()
  {
    final Set<String> hosts = new HashSet<>();
    historicals.forEach(node -> hosts.add(node.hostAndPort()));
    return hosts;
  }

  /**
   * Stops every node (Historicals and Brokers first, ZooKeeper last), kills whatever is left of the cluster's processes,
   * and removes the cgroups. Idempotent; also run by a JVM shutdown hook.
   */
  @Override
  public synchronized void close()
  {
    if (closed) {
      return;
    }
    closed = true;
    try {
      final List<LocalNode> first = new ArrayList<>(historicals);
      if (broker != null) {
        first.add(broker);
      }
      if (stockBroker != null) {
        first.add(stockBroker);
      }
      stopAll(first);
      if (coordinator != null) {
        stopAll(List.of(coordinator));
      }
      if (zooKeeper != null) {
        stopAll(List.of(zooKeeper));
      }
      reapProcesses(config.workDir());
      cgroups.forEach(CpuCgroup::close);
    }
    finally {
      LIVE.remove(this);
    }
  }

  /**
   * Stops nodes in parallel, one thread each: each may take the whole grace period, and this also runs in the
   * shutdown hook, where the common pool (one thread on a 2-core machine) would serialise them.
   */
  private void stopAll(List<LocalNode> nodes)
  {
    final List<Thread> stoppers = new ArrayList<>();
    for (LocalNode node : nodes) {
      final Thread stopper = new Thread(() -> node.stop(config.stopGrace()), "getafix-stop-" + node.name());
      stopper.start();
      stoppers.add(stopper);
    }
    for (Thread stopper : stoppers) {
      try {
        stopper.join();
      }
      catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private List<LocalNode> druidNodes()
  {
    final List<LocalNode> nodes = new ArrayList<>();
    nodes.add(coordinator);
    nodes.add(broker);
    if (stockBroker != null) {
      nodes.add(stockBroker);
    }
    nodes.addAll(historicals);
    return nodes;
  }

  public String describe()
  {
    final StringBuilder sb = new StringBuilder();
    sb.append("zookeeper=localhost:").append(zooKeeper.port())
      .append(", coordinator/overlord=").append(coordinator.uri())
      .append(", broker=").append(broker.uri());
    if (stockBroker != null) {
      sb.append(", stock broker=").append(stockBroker.uri());
    }
    for (int i = 0; i < historicals.size(); i++) {
      final LocalNode h = historicals.get(i);
      sb.append(", ").append(h.name()).append('=').append(h.uri());
      h.cgroup().ifPresent(g -> sb.append(" (cpu ").append(g.quota() <= 0 ? "unlimited" : g.quota() + " cores").append(')'));
    }
    sb.append(", logs=").append(logDir());
    return sb.toString();
  }

  // ---- process hygiene

  /**
   * The live processes started for a cluster in {@code workDir} (found by the marker system property), including task
   * JVMs forked by the Overlord.
   */
  public static List<ProcessHandle> processesOf(Path workDir)
  {
    final String marker = "-D" + MARKER_PROPERTY + "=" + workDir.toAbsolutePath().normalize();
    return ProcessHandle.allProcesses()
                        .filter(p -> p.pid() != ProcessHandle.current().pid())
                        .filter(p -> commandLine(p).map(args -> args.contains(marker)).orElse(false))
                        .toList();
  }

  private static Optional<List<String>> commandLine(ProcessHandle process)
  {
    final Path cmdline = Paths.get("/proc", Long.toString(process.pid()), "cmdline");
    try {
      if (Files.isReadable(cmdline)) {
        return Optional.of(List.of(Files.readString(cmdline, StandardCharsets.UTF_8).split("\0")));
      }
    }
    catch (IOException e) {
      return Optional.empty();
    }
    return process.info().arguments().map(List::of);
  }

  /**
   * Kills (SIGKILL) every live process of a cluster in {@code workDir}; used at start to clean up after a crashed run
   * and at close as the last line of defence.
   */
  public static void reapProcesses(Path workDir)
  {
    final List<ProcessHandle> leftovers = processesOf(workDir);
    for (ProcessHandle p : leftovers) {
      LOG.log(System.Logger.Level.WARNING, "Killing leftover cluster process " + p.pid());
      p.destroyForcibly();
    }
    for (ProcessHandle p : leftovers) {
      try {
        p.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
      }
      catch (Exception e) {
        LOG.log(System.Logger.Level.WARNING, "Leftover process " + p.pid() + " did not exit: " + e);
      }
    }
  }

  private static void deleteOldRunData(Path workDir) throws IOException
  {
    try (Stream<Path> runs = Files.list(workDir)) {
      for (Path run : runs.filter(p -> p.getFileName().toString().startsWith("run-")).toList()) {
        for (String dataDir : List.of("var", "nodes", "extensions")) {
          deleteRecursively(run.resolve(dataDir));
        }
      }
    }
  }

  private static void deleteRecursively(Path dir) throws IOException
  {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  // ---- CLI

  public static void main(String[] args) throws Exception
  {
    System.exit(LocalDruidClusterCli.run(args));
  }
}
