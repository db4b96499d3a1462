package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.function.Predicate;

/**
 * One run of {@link ReplayExperiment}: a Broker restarted with one {@link ReplaySetup}, then the
 * {@link BusyQuietCycles}, each phase with what it cost and what the Broker counted in it. A phase is a span of wall
 * time: the Historicals' work a busy phase leaves behind (the straggler's cut sub-queries) counts in the quiet phase
 * after it, in every setup alike.
 *
 * @param setup           the Broker's setting
 * @param phases          the phases in the order they ran
 * @param estimate        the Broker's sampled-quality estimate at the end of the run against the true mean quality
 *                        of the run's answers: the Broker restarted for the run, so its estimate covers exactly them
 * @param unfinishedAtEnd replays still queued or in flight when the run ended
 */
public record ReplayRun(
    ReplaySetup setup,
    List<Phase> phases,
    QualityEstimateCheck estimate,
    long unfinishedAtEnd
)
{
  /**
   * One phase as measured.
   *
   * @param kind                 busy or quiet
   * @param millis               how long it lasted, from the read before it to the read after it
   * @param historicalCpuSeconds the CPU all Historicals used in it
   * @param brokerCpuSeconds     the CPU the Broker used in it
   * @param counters             what the quality endpoint counted in it
   * @param outcomes             its online queries; none in a quiet phase
   */
  public record Phase(
      BusyQuietCycles.Kind kind,
      long millis,
      double historicalCpuSeconds,
      double brokerCpuSeconds,
      SampleCounters counters,
      List<BudgetLoad.Outcome> outcomes
  )
  {
    public Phase
    {
      outcomes = List.copyOf(outcomes);
    }
  }

  public ReplayRun
  {
    phases = List.copyOf(phases);
  }

  /**
   * The run of {@code setup} from its {@code phases} and the quality endpoint's {@code endState}, read after the last
   * phase: the estimate there against the mean coverage of every answer of the run.
   */
  public static ReplayRun of(ReplaySetup setup, List<Phase> phases, JsonNode endState)
  {
    final double truth = OnlineFigures.of(outcomes(phases, p -> true)).meanCoverage();
    return new ReplayRun(
        setup,
        phases,
        QualityEstimateCheck.of(endState, truth),
        endState.path("replayQueue").asLong(0) + endState.path("replaysInFlight").asLong(0)
    );
  }

  /** The online queries of the phases of {@code kind}. */
  public OnlineFigures online(BusyQuietCycles.Kind kind)
  {
    return OnlineFigures.of(outcomes(phases, p -> p.kind() == kind));
  }

  /** Every online query of the run. */
  public OnlineFigures online()
  {
    return OnlineFigures.of(outcomes(phases, p -> true));
  }

  public double historicalCpuSeconds(BusyQuietCycles.Kind kind)
  {
    return phases.stream().filter(p -> p.kind() == kind).mapToDouble(Phase::historicalCpuSeconds).sum();
  }

  public double historicalCpuSeconds()
  {
    return phases.stream().mapToDouble(Phase::historicalCpuSeconds).sum();
  }

  public double brokerCpuSeconds()
  {
    return phases.stream().mapToDouble(Phase::brokerCpuSeconds).sum();
  }

  /** The Historicals' CPU over the whole run per online query answered, in milliseconds; NaN if none was. */
  public double historicalCpuMillisPerAnswer()
  {
    final int answered = online().answered();
    return answered == 0 ? Double.NaN : historicalCpuSeconds() * 1000 / answered;
  }

  /** What the quality endpoint counted in the phases of {@code kind}. */
  public SampleCounters counters(BusyQuietCycles.Kind kind)
  {
    return phases.stream()
                 .filter(p -> p.kind() == kind)
                 .map(Phase::counters)
                 .reduce(SampleCounters.ZERO, SampleCounters::plus);
  }

  /** What the quality endpoint counted over the run. */
  public SampleCounters counters()
  {
    return phases.stream().map(Phase::counters).reduce(SampleCounters.ZERO, SampleCounters::plus);
  }

  private static List<BudgetLoad.Outcome> outcomes(List<Phase> phases, Predicate<Phase> which)
  {
    return phases.stream().filter(which).flatMap(p -> p.outcomes().stream()).toList();
  }
}
