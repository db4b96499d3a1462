package org.getafix.demo;

import org.getafix.localcluster.cluster.JitCompilerCpu;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * What {@code ./getafix demo} and {@code ./getafix bench live} run: the size of the cluster, the data, each phase
 * and how often the comparison repeats.
 *
 * @param quick          the short variant (smaller dataset, shorter phases)
 * @param measure        measured workload per strategy; the straggler appears halfway through it
 * @param warmUp         workload run before measuring, after placement has been handed over
 * @param settleTimeout  how long a strategy's placement may take to settle before it is measured anyway
 * @param jitWarmUp      how each strategy then warms the Historicals until their JIT compilers settle, the same for all
 * @param cpuQuotas      CPU cap (cores) of each Historical; their number is the number of Historicals
 * @param strategies     strategies in the order they run (as given), each on the same cluster and data
 * @param hours          hourly segments ingested
 * @param rowsPerHour    rows per segment
 * @param keepRunning    leave the cluster up after the report, until Ctrl-C
 * @param budgetMs       budget of druid-getafix's queries in milliseconds; null for stock Druid's measured p99
 * @param repetitions    how many times the strategies run, the order reversed every other time (ABBA)
 * @param hedge          whether druid-getafix's queries are also hedged ({@code getafixHedge}): their late sub-queries
 *                       re-sent to other holders of their segments
 * @param budgeted       whether druid-getafix's queries carry a budget ({@code getafixBudgetMs}) at all
 * @param stragglerCores cores the strongest Historical is throttled to halfway through each measurement
 * @param timeoutMs      Druid's query {@code timeout} of every query of both setups, in milliseconds; null for none
 * @param clients        closed-loop clients of the workload
 * @param stalls         instead of turning into a straggler halfway, the strongest Historical stalls (is throttled to
 *                       {@code stragglerCores}) periodically from each warm-up on; null for the halfway straggler
 * @param backUpUnstable whether druid-getafix's plan gives what an unstable Historical holds alone a second holder
 *                       (the dynamic config's {@code backUpUnstable})
 * @param redundancy     which of druid-getafix's hedged sub-queries also go to another holder at once ({@code
 *                       getafixRedundancy}: SPARE or ZOOLANDER); null for none
 */
public record DemoOptions(
    boolean quick,
    Duration measure,
    Duration warmUp,
    Duration settleTimeout,
    JitCompilerCpu.WarmUp jitWarmUp,
    List<Double> cpuQuotas,
    List<Strategy> strategies,
    int hours,
    int rowsPerHour,
    boolean keepRunning,
    Long budgetMs,
    int repetitions,
    boolean hedge,
    boolean budgeted,
    double stragglerCores,
    Long timeoutMs,
    int clients,
    Stalls stalls,
    boolean backUpUnstable,
    String redundancy
)
{
  /** As in the routing experiment: slow enough to set the tail of every query that waits for it. */
  static final double DEFAULT_STRAGGLER_CORES = 0.1;
  static final int DEFAULT_CLIENTS = 4;
  private static final String OPTIONS = String.join(
      System.lineSeparator(),
      "  --quick         small dataset and short phases",
      "  --duration S    measured seconds per strategy (default 120, quick 30); a straggler appears halfway",
      "  --historicals N number of Historicals, 2 to 6 (default 3)",
      "  --quotas LIST   CPU cores of each Historical (default: 1.0 for the first, 0.25 for the last, 0.5 between)",
      "  --strategies    which of stock, getafix to run, in the order given (default stock,getafix, so that",
      "                  druid-getafix's budget can be stock's measured p99; getafix,stock swaps the order)",
      "  --budget-ms MS  getafixBudgetMs of druid-getafix's queries (default: stock Druid's measured p99)",
      "  --no-budget     druid-getafix's queries carry no budget (then no answer is partial and none is sampled)",
      "  --hedge         druid-getafix's queries are also hedged (getafixHedge): a late sub-query's segments are",
      "                  re-sent to their other holders",
      "  --straggler-cores C  cores the strongest Historical is throttled to halfway (default " + DEFAULT_STRAGGLER_CORES + ")",
      "  --timeout-ms MS Druid's query timeout of every query of both setups; a query past it fails (default none)",
      "  --clients N     closed-loop clients of the workload (default " + DEFAULT_CLIENTS + ")",
      "  --stalls P:L    instead of a straggler from halfway, the strongest Historical stalls (is throttled to",
      "                  --straggler-cores) for L seconds every P seconds from the warm-up on, e.g. 10:1.5",
      "  --backup        druid-getafix's plan backs up unstable Historicals (backUpUnstable true)",
      "  --redundancy M  druid-getafix's queries are hedged and their sub-queries copied up front as M says",
      "                  (getafixRedundancy): spare (sPARE's replication factor) or zoolander (Zoolander's model)",
      "  --repetitions N run the strategies N times, in the order given, then reversed, and so on (ABBA)"
  );
  public static final String USAGE = String.join(
      System.lineSeparator(),
      "usage: ./getafix demo [--quick] [--duration S] [--historicals N] [--quotas 1.0,0.5,0.25]",
      "                      [--strategies stock,getafix] [--budget-ms MS | --no-budget] [--hedge]",
      "                      [--straggler-cores C] [--stalls P:L] [--backup] [--timeout-ms MS] [--clients N]",
      "                      [--redundancy spare|zoolander] [--repetitions N] [--keep-running]",
      "  (a single run takes 8-15 minutes on 2 cores, --quick 5-8)",
      OPTIONS + " (default 1)",
      "  --keep-running  leave the cluster up after the report and print the Druid web console URL"
  );
  public static final String BENCH_USAGE = String.join(
      System.lineSeparator(),
      "usage: ./getafix bench live [--experiments placement,routing,budgeted,control,admission] [--quick]",
      "                            [--repetitions N] [--duration S] [--historicals N] [--quotas LIST]",
      "                            [--strategies stock,getafix] [--budget-ms MS | --no-budget] [--hedge]",
      "                            [--straggler-cores C] [--stalls P:L] [--backup] [--timeout-ms MS]",
      "                            [--clients N] [--redundancy spare|zoolander]",
      "  (3 repetitions of placement take 25-45 minutes on 2 cores, --quick about 12; of overhead about 8,",
      "  --quick about 5; of each other experiment about 10-15 minutes, --quick 6-10)",
      OPTIONS + " (default 3)"
  );
  private static final int MAX_CLIENTS = 64;
  static final int DEMO_REPETITIONS = 1;
  static final int BENCH_REPETITIONS = 3;
  private static final int MAX_REPETITIONS = 20;
  private static final int MIN_HISTORICALS = 2;
  private static final int MAX_HISTORICALS = 6;
  /**
   * A quick run's JIT warm-up: 10 s windows, in proportion to its 30 s measurement, but the full run's 5-minute
   * deadline. Whichever phase comes first warms a fresh cluster's compilers: with a 2-minute deadline they still took
   * a quarter of a Historical's CPU while the first phase was measured and a twentieth in the second, which moved the
   * ratios towards whichever setup ran second.
   */
  static final JitCompilerCpu.WarmUp QUICK_JIT_WARM_UP =
      new JitCompilerCpu.WarmUp(0.10, Duration.ofSeconds(10), Duration.ofMinutes(5));

  public DemoOptions
  {
    cpuQuotas = List.copyOf(cpuQuotas);
    strategies = List.copyOf(strategies);
  }

  /** The demo's options: one repetition unless asked. */
  public static DemoOptions parse(String... args)
  {
    return parse(DEMO_REPETITIONS, args);
  }

  /** The live benchmark's: the demo's, {@link #BENCH_REPETITIONS} repetitions unless asked, and no cluster left up. */
  public static DemoOptions parseBench(String... args)
  {
    if (List.of(args).contains("--keep-running")) {
      throw new IllegalArgumentException("--keep-running is the demo's: the benchmark stops its cluster");
    }
    return parse(BENCH_REPETITIONS, args);
  }

  /** @throws IllegalArgumentException with a message for the user on bad arguments */
  private static DemoOptions parse(int defaultRepetitions, String... args)
  {
    int repetitions = defaultRepetitions;
    boolean hedge = false;
    boolean quick = false;
    Integer seconds = null;
    Integer historicals = null;
    List<Double> quotas = null;
    List<Strategy> strategies = List.of(Strategy.values());
    boolean keepRunning = false;
    Long budgetMs = null;
    boolean budgeted = true;
    double stragglerCores = DEFAULT_STRAGGLER_CORES;
    Long timeoutMs = null;
    int clients = DEFAULT_CLIENTS;
    Stalls stalls = null;
    boolean backUpUnstable = false;
    String redundancy = null;
    for (int i = 0; i < args.length; i++) {
      final String arg = args[i];
      switch (arg) {
        case "--quick" -> quick = true;
        case "--keep-running" -> keepRunning = true;
        case "--hedge" -> hedge = true;
        case "--duration" -> {
          seconds = positiveInt(value(args, ++i, arg), arg);
          if (seconds < 10) {
            throw new IllegalArgumentException("--duration must be at least 10 seconds, got " + seconds);
          }
        }
        case "--historicals" -> historicals = positiveInt(value(args, ++i, arg), arg);
        case "--budget-ms" -> budgetMs = (long) positiveInt(value(args, ++i, arg), arg);
        case "--no-budget" -> budgeted = false;
        case "--straggler-cores" -> stragglerCores = cores(value(args, ++i, arg), arg);
        case "--stalls" -> stalls = Stalls.parse(value(args, ++i, arg));
        case "--backup" -> backUpUnstable = true;
        case "--redundancy" -> {
          redundancy = value(args, ++i, arg).toUpperCase(Locale.ROOT);
          if (!List.of("SPARE", "ZOOLANDER").contains(redundancy)) {
            throw new IllegalArgumentException("--redundancy must be spare or zoolander, got " + args[i]);
          }
          hedge = true;
        }
        case "--timeout-ms" -> timeoutMs = (long) positiveInt(value(args, ++i, arg), arg);
        case "--clients" -> {
          clients = positiveInt(value(args, ++i, arg), arg);
          if (clients > MAX_CLIENTS) {
            throw new IllegalArgumentException("--clients must be at most " + MAX_CLIENTS + ", got " + clients);
          }
        }
        case "--quotas" -> quotas = quotas(value(args, ++i, arg));
        case "--strategies" -> strategies = strategies(value(args, ++i, arg));
        case "--repetitions" -> {
          repetitions = positiveInt(value(args, ++i, arg), arg);
          if (repetitions > MAX_REPETITIONS) {
            throw new IllegalArgumentException("--repetitions must be at most " + MAX_REPETITIONS + ", got " + repetitions);
          }
        }
        default -> throw new IllegalArgumentException("unknown option " + arg);
      }
    }
    if (historicals == null) {
      historicals = quotas == null ? 3 : quotas.size();
    }
    if (historicals < MIN_HISTORICALS || historicals > MAX_HISTORICALS) {
      throw new IllegalArgumentException(
          "--historicals must be between " + MIN_HISTORICALS + " and " + MAX_HISTORICALS + ", got " + historicals
      );
    }
    if (!budgeted && budgetMs != null) {
      throw new IllegalArgumentException("--budget-ms and --no-budget contradict each other: choose one");
    }
    if (quotas == null) {
      quotas = defaultQuotas(historicals);
    } else if (quotas.size() != historicals) {
      throw new IllegalArgumentException(
          "--quotas gives " + quotas.size() + " values for " + historicals + " Historicals"
      );
    }
    return new DemoOptions(
        quick,
        Duration.ofSeconds(seconds != null ? seconds : quick ? 30 : 120),
        Duration.ofSeconds(quick ? 15 : 45),
        Duration.ofSeconds(quick ? 90 : 180),
        quick ? QUICK_JIT_WARM_UP : JitCompilerCpu.WarmUp.WORKLOAD,
        quotas,
        strategies,
        quick ? 24 : 100,
        quick ? 2_000 : 5_000,
        keepRunning,
        budgetMs,
        repetitions,
        hedge,
        budgeted,
        stragglerCores,
        timeoutMs,
        clients,
        stalls,
        backUpUnstable,
        redundancy
    );
  }

  /**
   * A Historical's periodic stalls: throttled for {@code lasting} at the end of every {@code every}.
   *
   * @param every   the period, from the start of the warm-up to the first stall's end and between stalls
   * @param lasting how long each stall lasts, shorter than the period
   */
  public record Stalls(Duration every, Duration lasting)
  {
    public Stalls
    {
      if (lasting.isNegative() || lasting.isZero() || lasting.compareTo(every) >= 0) {
        throw new IllegalArgumentException(
            "a stall must last longer than 0 and less than its period, got " + lasting.toMillis() / 1e3 + " s every "
            + every.toMillis() / 1e3 + " s"
        );
      }
    }

    /** {@code P:L}, seconds: stalls lasting L seconds every P seconds. */
    static Stalls parse(String value)
    {
      final String[] parts = value.split(":");
      if (parts.length != 2) {
        throw new IllegalArgumentException("--stalls wants PERIOD:LENGTH in seconds like 10:1.5, got " + value);
      }
      return new Stalls(seconds(parts[0], value), seconds(parts[1], value));
    }

    private static Duration seconds(String part, String value)
    {
      final double seconds;
      try {
        seconds = Double.parseDouble(part.trim());
      }
      catch (NumberFormatException e) {
        throw new IllegalArgumentException("--stalls wants PERIOD:LENGTH in seconds like 10:1.5, got " + value);
      }
      if (!(seconds > 0) || seconds > 3600) {
        throw new IllegalArgumentException("--stalls wants seconds above 0 and at most 3600, got " + value);
      }
      return Duration.ofMillis(Math.round(seconds * 1000));
    }

    /** In words, for the reports. */
    String describe()
    {
      return String.format(Locale.ROOT, "for %.1f s every %.1f s", lasting.toMillis() / 1e3, every.toMillis() / 1e3);
    }
  }

  /**
   * The strategies of each repetition, in the order they run: as given, then reversed, and so on, so that over two
   * repetitions each strategy runs once before and once after the other (ABBA) and neither profits from coming later.
   */
  public List<List<Strategy>> schedule()
  {
    final List<Strategy> reversed = new ArrayList<>(strategies);
    Collections.reverse(reversed);
    return IntStream.range(0, repetitions).mapToObj(r -> r % 2 == 0 ? strategies : List.copyOf(reversed)).toList();
  }

  /** Unequal caps: 1.0 core for the first Historical, 0.25 for the last, 0.5 for those between. */
  static List<Double> defaultQuotas(int historicals)
  {
    final List<Double> quotas = new ArrayList<>(Collections.nCopies(historicals, 0.5));
    quotas.set(0, 1.0);
    quotas.set(historicals - 1, 0.25);
    return quotas;
  }

  public int historicals()
  {
    return cpuQuotas.size();
  }

  private static List<Double> quotas(String list)
  {
    final List<Double> quotas = new ArrayList<>();
    for (String part : list.split(",")) {
      quotas.add(cores(part.trim(), "a CPU quota in --quotas"));
    }
    return quotas;
  }

  private static double cores(String value, String what)
  {
    final double cores;
    try {
      cores = Double.parseDouble(value);
    }
    catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " wants a number of cores like 0.5, got " + value);
    }
    if (!(cores > 0) || cores > 64) {
      throw new IllegalArgumentException(what + " must be above 0 and at most 64 cores, got " + value);
    }
    return cores;
  }

  private static List<Strategy> strategies(String list)
  {
    final LinkedHashSet<Strategy> chosen = new LinkedHashSet<>();
    for (String part : list.split(",")) {
      chosen.add(Strategy.named(part.trim().toLowerCase(Locale.ROOT)));
    }
    // In the order given: each phase is warmed until its Historicals' compilers settle, so either order compares.
    return List.copyOf(chosen);
  }

  private static int positiveInt(String value, String option)
  {
    try {
      final int n = Integer.parseInt(value);
      if (n < 1) {
        throw new IllegalArgumentException(option + " must be positive, got " + value);
      }
      return n;
    }
    catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " wants a whole number, got " + value);
    }
  }

  private static String value(String[] args, int i, String option)
  {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }
}
