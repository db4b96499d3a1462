package org.getafix.localcluster.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The load of a {@link ReplayExperiment} run: {@code cycles} times a busy phase, {@code busyClients} closed-loop
 * clients for {@code busy}, then a quiet phase without any query for {@code quiet}. Every setup runs the same cycles.
 *
 * <p>Quiet means no query at all. The Broker replays only while it is idle by Ubora's rule ({@code replayIdleQueries}
 * 0: nothing in flight, and the mean gap between arrivals above the mean replay time, which the mature runs of the busy
 * phases set at seconds); even one query every few seconds could keep it from ever looking idle, and the replays
 * would then wait until their expiration forced them.
 *
 * @param cycles      busy-then-quiet cycles, &ge; 1
 * @param busy        how long each busy phase sends queries; its queries still in flight are awaited after it
 * @param quiet       how long each quiet phase lasts
 * @param busyClients closed-loop clients in a busy phase, &ge; 1
 */
public record BusyQuietCycles(int cycles, Duration busy, Duration quiet, int busyClients)
{
  /**
   * Twice the calibration's clients, as the control runs after their load step: most answers are cut at the budget,
   * and while the one mature run allowed waits on the straggler, the other samples are skipped.
   */
  public static final int BUSY_CLIENTS = 2 * BudgetExperiment.CLIENTS;

  /** Whether a phase sends queries. */
  public enum Kind
  {
    BUSY,
    QUIET
  }

  /** One phase of the cycles. */
  public record Phase(Kind kind, Duration length)
  {
  }

  public BusyQuietCycles
  {
    if (cycles < 1 || busyClients < 1) {
      throw new IllegalArgumentException("need cycles >= 1 and busyClients >= 1, got " + cycles + ", " + busyClients);
    }
    if (busy.isNegative() || busy.isZero() || quiet.isNegative() || quiet.isZero()) {
      throw new IllegalArgumentException("busy and quiet phases must be positive, got " + busy + ", " + quiet);
    }
  }

  /**
   * The bench's: 3 cycles of 15 s busy and 15 s quiet (quick: 10 s and 10 s), about 15 minutes for two setups in
   * three repetitions with the cluster's start and calibration. A quiet phase must outlast the mean replay time the
   * busy phase left (the mature runs' times under load, seconds) before the first replay starts, and then leave time
   * to replay a busy phase's skipped samples; with three cycles the replays a busy phase leaves undone meet the busy
   * phases after it, not only the end of the run.
   */
  public static BusyQuietCycles standard(boolean quick)
  {
    final Duration phase = Duration.ofSeconds(quick ? 10 : 15);
    return new BusyQuietCycles(3, phase, phase, BUSY_CLIENTS);
  }

  /** The phases in order: busy, quiet, busy, quiet, ... */
  public List<Phase> phases()
  {
    final List<Phase> phases = new ArrayList<>();
    for (int c = 0; c < cycles; c++) {
      phases.add(new Phase(Kind.BUSY, busy));
      phases.add(new Phase(Kind.QUIET, quiet));
    }
    return phases;
  }

  /** The time the phases are given, without the wait for the queries still in flight at each busy phase's end. */
  public Duration length()
  {
    return busy.plus(quiet).multipliedBy(cycles);
  }
}
