package org.getafix.simulator.cluster;

import org.getafix.core.placement.capacity.MeasuredRound;
import org.getafix.simulator.engine.EventLoop;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * A Druid Historical as a queueing station: {@code cores} servers fed by one FIFO queue of per-segment tasks.
 * Its speed factor scales service time; a straggler's speed drops from a given time on. It also keeps what it
 * holds in memory and its load queue (in Druid's priority order, a few loading threads, each at a fixed bandwidth).
 */
public final class Historical
{
  /** Told when a task leaves a core. */
  public interface TaskListener
  {
    void onTaskDone(Task task, double serviceSeconds);
  }

  private final EventLoop loop;
  private final int index;
  private final String id;
  private final int cores;
  private final double baseSpeed;
  private final String hardwareTier;
  private final TaskListener listener;
  private final ArrayDeque<Task> queue = new ArrayDeque<>();

  /**
   * A node never gives its loads more than this share of its cores: the operating system schedules the query threads
   * too.
   */
  static final double MAX_LOAD_CPU_SHARE = 0.9;

  private double slowFrom = Double.POSITIVE_INFINITY;
  /** Cores each load in progress takes from the queries (decompressing and mapping the segment's files); 0 is free. */
  private double loadCpuCores;
  private double slowSpeed = 1.0;
  /** Periodic stalls (interference from a neighbour): none while {@code stallEvery} is 0. */
  private double stallEvery;
  private double stallFor;
  private double stallOffset;
  private double stallFactor = 1.0;
  private int busyCores;
  private double lastBusyChange;

  // Per-round counters, reset by takeRoundStats().
  private double roundBusyCoreSeconds;
  private HistoricalMeter meter;

  // Whole-run counters, for the queueing check.
  private long tasksStarted;
  private double totalWaitSeconds;

  /**
   * The order a node's pending loads start in, as Druid 33's load queue peon serves them
   * ({@code SegmentHolder}'s comparator over {@code SegmentAction}): first the segments no node serves
   * ({@code LOAD}, e.g. a handoff: the data is unavailable until it is loaded), then the replicas of served
   * segments ({@code REPLICATE}; the getafix rule realises a plan's moves as replicas too, dropping the old copy
   * once the new one serves), each class newest segment (latest interval) first. A load a thread has begun is
   * never pre-empted, as on a Historical. The key is stable while a segment waits: a segment is unavailable only
   * until its handoff load, the one load anyone asks of it then (plans cover served segments only), completes.
   */
  static final Comparator<Segment> LOAD_ORDER =
      Comparator.comparing(Segment::isQueryable).thenComparing(Comparator.comparingInt(Segment::index).reversed());

  // Memory and loading.
  /** Pending loads, in {@link #LOAD_ORDER}. */
  final PriorityQueue<Segment> loadQueue = new PriorityQueue<>(LOAD_ORDER);
  int loadsInProgress;
  private int loadingThreads = 1;
  long bytesHeld;
  long peakBytes;

  public Historical(
      EventLoop loop,
      int index,
      String id,
      int cores,
      double speed,
      String hardwareTier,
      TaskListener listener
  )
  {
    if (cores < 1) {
      throw new IllegalArgumentException("cores of node " + id + " must be >= 1, got [" + cores + "]");
    }
    if (!(speed > 0) || !Double.isFinite(speed)) {
      throw new IllegalArgumentException("speed of node " + id + " must be > 0, got [" + speed + "]");
    }
    this.loop = loop;
    this.index = index;
    this.id = id;
    this.cores = cores;
    this.baseSpeed = speed;
    this.hardwareTier = hardwareTier;
    this.listener = listener;
    this.meter = new HistoricalMeter(cores, cores * speed);
  }

  /**
   * The processing threads this node reports ({@code druid.processing.numThreads}); by default its cores. Its CPU
   * cores it reports as cores × speed, what a cgroup quota says: a straggler's later slowdown is contention the
   * node cannot see in its quota (see {@link HistoricalMeter}).
   */
  public void setProcessingThreads(int processingThreads)
  {
    if (processingThreads < 1) {
      throw new IllegalArgumentException(
          "processing threads of node " + id + " must be >= 1, got [" + processingThreads + "]"
      );
    }
    this.meter = new HistoricalMeter(processingThreads, cores * baseSpeed);
  }

  /** Makes this node a straggler: tasks that start at or after {@code fromTime} run at {@code speed}. */
  public void slowDown(double fromTime, double speed)
  {
    this.slowFrom = fromTime;
    this.slowSpeed = speed;
  }

  /**
   * Makes this node stall periodically, as a co-located tenant's bursts do: tasks that start in
   * [offset + k·every, offset + k·every + duration) run at {@code factor} times the speed they would have. A task
   * keeps the speed it started at, so one that starts just before a stall is not slowed by it.
   */
  public void stallPeriodically(double everySeconds, double durationSeconds, double offsetSeconds, double factor)
  {
    if (!(everySeconds > 0 && durationSeconds >= 0 && durationSeconds <= everySeconds && factor > 0)) {
      throw new IllegalArgumentException(
          "stalls of node " + id + " need every > 0, 0 <= duration <= every and factor > 0, got ["
          + everySeconds + ", " + durationSeconds + ", " + factor + "]"
      );
    }
    this.stallEvery = everySeconds;
    this.stallFor = durationSeconds;
    this.stallOffset = offsetSeconds;
    this.stallFactor = factor;
  }

  /**
   * How long in [from, to) this node could not run when it should have, as a live Historical's stall meter counts it:
   * the part of each stall that its factor takes away (a stall at 0.1 of the speed is 90% stalled). A straggler is
   * slow all the time, which its capacity estimate says; only the stalls come and go.
   */
  double stalledSecondsIn(double from, double to)
  {
    if (stallEvery <= 0 || stallFor <= 0 || to <= stallOffset) {
      return 0;
    }
    double stalled = 0;
    final double start = Math.max(from, stallOffset);
    for (long k = (long) Math.floor((start - stallOffset) / stallEvery); stallOffset + k * stallEvery < to; k++) {
      final double stallStart = stallOffset + k * stallEvery;
      stalled += Math.max(0, Math.min(to, stallStart + stallFor) - Math.max(start, stallStart));
    }
    return stalled * (1 - Math.min(1, stallFactor));
  }

  public double speedAt(double time)
  {
    final double speed = time >= slowFrom ? slowSpeed : baseSpeed;
    if (stallEvery > 0 && time >= stallOffset && (time - stallOffset) % stallEvery < stallFor) {
      return speed * stallFactor;
    }
    return speed;
  }

  public void submit(Task task)
  {
    if (busyCores < cores) {
      start(task);
    } else {
      queue.addLast(task);
    }
  }

  private void start(Task task)
  {
    final double now = loop.now();
    accountBusy(now);
    busyCores++;
    task.startedAt = now;
    task.running = true;
    tasksStarted++;
    totalWaitSeconds += now - task.enqueuedAt;
    task.speed = speedAt(now) * queryCpuShare();
    final double service = (task.work + task.overhead) / task.speed;
    loop.schedule(now + service, () -> complete(task, service));
  }

  private void complete(Task task, double service)
  {
    if (task.over) {
      return;
    }
    task.over = true;
    accountBusy(loop.now());
    busyCores--;
    meter.onDone(task, service);
    listener.onTaskDone(task, service);
    if (!queue.isEmpty()) {
      start(queue.pollFirst());
    }
  }

  /**
   * Cancels a task of a query whose answer was taken at its deadline, as Druid cancels a query's segment scans: a
   * queued task leaves the queue; a running one frees its core now, having burnt the CPU time it ran for.
   *
   * @return whether the task was still queued or running
   */
  public boolean cancel(Task task)
  {
    if (task.over) {
      return false;
    }
    task.over = true;
    if (!task.running) {
      return queue.remove(task);
    }
    final double now = loop.now();
    accountBusy(now);
    busyCores--;
    final double ran = now - task.startedAt;
    meter.onCancelled(task, ran, ran * task.speed);
    if (!queue.isEmpty()) {
      start(queue.pollFirst());
    }
    return true;
  }

  private void accountBusy(double now)
  {
    roundBusyCoreSeconds += busyCores * (now - lastBusyChange);
    lastBusyChange = now;
  }

  /** Counters of the round that ends now, {@code wallSeconds} long, then resets them. */
  public RoundCounters takeRoundStats(double wallSeconds)
  {
    accountBusy(loop.now());
    final double now = loop.now();
    final RoundCounters counters = new RoundCounters(
        roundBusyCoreSeconds,
        meter.takeRound(wallSeconds, stalledSecondsIn(now - wallSeconds, now))
    );
    roundBusyCoreSeconds = 0;
    return counters;
  }

  /**
   * @param busyCoreSeconds core-seconds the cores were occupied
   * @param measured        the same round as Druid's metrics on the node report it
   */
  public record RoundCounters(double busyCoreSeconds, MeasuredRound.NodeCounters measured)
  {
  }

  /** Tasks waiting for a core now (not counting the running ones). */
  public int queuedTasks()
  {
    return queue.size();
  }

  public long tasksStarted()
  {
    return tasksStarted;
  }

  public double meanWaitSeconds()
  {
    return tasksStarted == 0 ? 0 : totalWaitSeconds / tasksStarted;
  }

  public int index()
  {
    return index;
  }

  public String id()
  {
    return id;
  }

  public int cores()
  {
    return cores;
  }

  public String hardwareTier()
  {
    return hardwareTier;
  }

  /**
   * The share of the node's CPU its queries get while {@link #loadsInProgress} segments load: a task that starts
   * during loads runs slower by it to its end, as a task that starts in a stall does.
   */
  double queryCpuShare()
  {
    return 1 - Math.min(MAX_LOAD_CPU_SHARE, loadsInProgress * loadCpuCores / cores);
  }

  /** @param cores cores each load in progress takes from the node's queries; 0 charges loads nothing */
  public void setLoadCpuCores(double cores)
  {
    if (!(cores >= 0) || !Double.isFinite(cores)) {
      throw new IllegalArgumentException("load CPU cores of node " + id + " must be >= 0, got [" + cores + "]");
    }
    this.loadCpuCores = cores;
  }

  /** Segments this node loads at once (Druid's {@code druid.segmentCache.numLoadingThreads}). */
  public int loadingThreads()
  {
    return loadingThreads;
  }

  public void setLoadingThreads(int threads)
  {
    if (threads < 1) {
      throw new IllegalArgumentException("loading threads of node " + id + " must be >= 1, got [" + threads + "]");
    }
    this.loadingThreads = threads;
  }

  public long bytesHeld()
  {
    return bytesHeld;
  }
}
