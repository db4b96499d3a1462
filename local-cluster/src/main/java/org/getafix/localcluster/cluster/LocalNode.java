package org.getafix.localcluster.cluster;

import org.getafix.localcluster.client.DruidHttp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * One JVM of the local cluster (ZooKeeper or a Druid server): how to start it, and the running process if any.
 * Its stdout and stderr go to its log file, which is appended to across restarts.
 */
public final class LocalNode
{
  private static final System.Logger LOG = System.getLogger(LocalNode.class.getName());
  /** The names of Druid's query processing threads ({@code druid.processing.formatString}, "processing-%s"). */
  private static final String PROCESSING_THREAD_PREFIX = "processing-";

  private final String name;
  private final DruidRole role;
  private final int port;
  private final List<String> command;
  private final Path logFile;
  private final Path requestLogDir;
  private final CpuCgroup cgroup;
  private volatile Process process;

  LocalNode(String name, DruidRole role, int port, List<String> command, Path logFile, Path requestLogDir, CpuCgroup cgroup)
  {
    this.name = name;
    this.role = role;
    this.port = port;
    this.command = List.copyOf(command);
    this.logFile = logFile;
    this.requestLogDir = requestLogDir;
    this.cgroup = cgroup;
  }

  /**
   * Node name, e.g. {@code coordinator}, {@code broker}, {@code historical-2}, {@code zookeeper}.
   */
  public String name()
  {
    return name;
  }

  /**
   * The Druid role, or empty for ZooKeeper.
   */
  public Optional<DruidRole> role()
  {
    return Optional.ofNullable(role);
  }

  public int port()
  {
    return port;
  }

  /**
   * The Druid server name of this node ({@code DruidServerMetadata.getName()}): {@code localhost:port}.
   */
  public String hostAndPort()
  {
    return "localhost:" + port;
  }

  public URI uri()
  {
    return URI.create("http://localhost:" + port);
  }

  public Path logFile()
  {
    return logFile;
  }

  /**
   * The queries this node has run so far, as Druid's file request logger wrote them (Historicals only; empty for the
   * others). A line still being written is skipped.
   */
  public List<RequestLogEntry> requestLog() throws IOException
  {
    final List<RequestLogEntry> entries = new ArrayList<>();
    if (requestLogDir == null || !Files.isDirectory(requestLogDir)) {
      return entries;
    }
    try (Stream<Path> files = Files.list(requestLogDir)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList()) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          RequestLogEntry.parse(line).ifPresent(entries::add);
        }
      }
    }
    return entries;
  }

  /** Where Druid's file request logger writes this node's queries (Historicals only). */
  public Optional<Path> requestLogDir()
  {
    return Optional.ofNullable(requestLogDir);
  }

  public List<String> command()
  {
    return command;
  }

  /**
   * The node's CPU cgroup, if it has one (Historicals, where cgroups are writable).
   */
  public Optional<CpuCgroup> cgroup()
  {
    return Optional.ofNullable(cgroup);
  }

  public boolean isAlive()
  {
    final Process p = process;
    return p != null && p.isAlive();
  }

  public long pid()
  {
    final Process p = process;
    if (p == null) {
      throw new IllegalStateException(name + " has not been started");
    }
    return p.pid();
  }

  /**
   * CPU time of the node in nanoseconds: its cgroup's {@code cpuacct.usage} when it has one (counts all its JVMs across
   * restarts), else the CPU time of the current process.
   */
  public long cpuUsageNanos()
  {
    if (cgroup != null && cgroup.usageNanos() >= 0) {
      return cgroup.usageNanos();
    }
    final Process p = process;
    return p == null ? 0 : p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }

  /**
   * CPU time (ns) of the current process's query processing pool (Druid's {@code processing-N} threads), where a
   * Historical scans its segments: unlike {@link #cpuUsageNanos}, without the JVM's compilers and collector or the
   * node's background work, which a node throttled for a while catches up on as soon as its quota returns.
   */
  public long processingCpuNanos()
  {
    return ThreadCpu.ofThisMachine().threadNanos(pid(), name -> name.startsWith(PROCESSING_THREAD_PREFIX));
  }

  synchronized void start() throws IOException
  {
    if (isAlive()) {
      throw new IllegalStateException(name + " is already running (pid " + process.pid() + ")");
    }
    Files.createDirectories(logFile.getParent());
    Files.writeString(
        logFile,
        System.lineSeparator() + "==== getafix launcher: starting " + name + ": " + String.join(" ", command) + System.lineSeparator(),
        StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND
    );
    final ProcessBuilder builder = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
        .redirectInput(ProcessBuilder.Redirect.PIPE);
    process = builder.start();
    LOG.log(System.Logger.Level.INFO, "Started " + name + " (pid " + process.pid() + ", port " + port + "), log: " + logFile);
    if (cgroup != null) {
      cgroup.addProcess(process.pid());
    }
  }

  /**
   * Stops the node like an operator would: SIGTERM, then SIGKILL after {@code grace}. Processes the node forked (task
   * JVMs of the Overlord) are killed too, since they would otherwise outlive it.
   */
  public void stop(Duration grace)
  {
    final Process p = process;
    if (p == null) {
      return;
    }
    final List<ProcessHandle> children = new ArrayList<>(p.descendants().toList());
    if (p.isAlive()) {
      p.destroy();
      try {
        if (!p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
          LOG.log(System.Logger.Level.WARNING, name + " did not exit " + grace.toSeconds() + " s after SIGTERM; sending SIGKILL");
          p.destroyForcibly().waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
        }
      }
      catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    killAll(children);
  }

  /**
   * Kills the node at once with SIGKILL, like a crashed machine. Returns when the process is gone.
   */
  public void kill()
  {
    final Process p = process;
    if (p == null) {
      return;
    }
    final List<ProcessHandle> children = new ArrayList<>(p.descendants().toList());
    p.destroyForcibly();
    try {
      p.waitFor(30, TimeUnit.SECONDS);
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    killAll(children);
  }

  /**
   * Stops ({@code SIGSTOP}) or continues ({@code SIGCONT}) the node's process, as a long garbage-collection pause or a
   * frozen VM would: connections are still accepted by the kernel, but nothing is answered.
   */
  public void freeze(boolean frozen) throws IOException
  {
    final Process p = process;
    if (p == null || !p.isAlive()) {
      throw new IllegalStateException(name + " is not running");
    }
    final Process signal = new ProcessBuilder("kill", frozen ? "-STOP" : "-CONT", Long.toString(p.pid()))
        .redirectErrorStream(true)
        .start();
    try {
      if (!signal.waitFor(10, TimeUnit.SECONDS) || signal.exitValue() != 0) {
        throw new IOException("could not " + (frozen ? "stop " : "continue ") + name + ": "
                              + new String(signal.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while signalling " + name, e);
    }
  }

  private static void killAll(List<ProcessHandle> processes)
  {
    for (ProcessHandle child : processes) {
      if (child.isAlive()) {
        child.destroyForcibly();
      }
    }
    for (ProcessHandle child : processes) {
      try {
        child.onExit().get(30, TimeUnit.SECONDS);
      }
      catch (Exception e) {
        LOG.log(System.Logger.Level.WARNING, "Process " + child.pid() + " did not exit after SIGKILL: " + e);
      }
    }
  }

  /**
   * Waits until the node answers its health check, failing early (with the log tail) if the process dies.
   */
  void awaitHealthy(Duration timeout) throws TimeoutException
  {
    Waits.await(
        name + " to become healthy on port " + port,
        timeout,
        Duration.ofMillis(500),
        () -> {
          if (!isAlive()) {
            throw new Waits.AbortWait(name + " exited with code " + process.exitValue() + " before it became healthy" + logTailMessage());
          }
          return role == null ? zooKeeperOk() : DruidHttp.shared().isHealthy(uri());
        },
        this::logTailMessage
    );
  }

  private boolean zooKeeperOk() throws IOException
  {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("localhost", port), 1000);
      socket.setSoTimeout(2000);
      final OutputStream out = socket.getOutputStream();
      out.write("ruok".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      final InputStream in = socket.getInputStream();
      return "imok".equals(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim());
    }
  }

  /**
   * The last {@code lines} lines of the node's log.
   */
  public String logTail(int lines)
  {
    try {
      if (!Files.exists(logFile)) {
        return "";
      }
      final List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
      return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
    }
    catch (IOException | RuntimeException e) {
      return "(cannot read " + logFile + ": " + e + ")";
    }
  }

  private String logTailMessage()
  {
    return System.lineSeparator() + "---- last lines of " + logFile + ":" + System.lineSeparator() + logTail(40);
  }

  @Override
  public String toString()
  {
    return name + "@" + hostAndPort();
  }
}
