package org.getafix.druid.coordinator.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.getafix.core.contract.Knob;
import org.getafix.core.contract.PlacementKnobs;
import org.joda.time.Period;

import javax.annotation.Nullable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Operator knobs of Getafix that can change without a restart, stored in the metadata store under
 * {@value #CONFIG_KEY} with {@code JacksonConfigManager} (audited like Druid's own dynamic configs) and served at
 * {@code /druid/coordinator/v1/getafix/config}. Immutable; {@link #validate} names every bad value.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class GetafixDynamicConfig
{
  public static final String CONFIG_KEY = "getafix.config";

  private final boolean enabled;
  private final boolean dryRun;
  private final double gamma;
  private final int minReplicas;
  private final int maxReplicas;
  @Nullable
  private final String roundPeriod;
  private final int maxLoadsPerRound;
  private final int maxDropsPerRound;
  private final double hotLoadShare;
  private final double hotMinNodeLoadShare;
  private final boolean backUpUnstable;
  private final double minPlanGain;
  private final double maxRebalanceDataPerHour;
  private final boolean rollback;

  /**
   * As {@link #GetafixDynamicConfig(boolean, boolean, double, int, int, String, int, int, Double, Double, Boolean,
   * Double, Double, Boolean)}, with the default hot floor, backups, plan gain and rebalancing budget, and no rollback.
   */
  public GetafixDynamicConfig(
      boolean enabled,
      boolean dryRun,
      double gamma,
      int minReplicas,
      int maxReplicas,
      @Nullable String roundPeriod,
      int maxLoadsPerRound,
      int maxDropsPerRound
  )
  {
    this(
        enabled,
        dryRun,
        gamma,
        minReplicas,
        maxReplicas,
        roundPeriod,
        maxLoadsPerRound,
        maxDropsPerRound,
        null,
        null,
        null,
        null,
        null,
        null
    );
  }

  /**
   * @param hotLoadShare the hottest segments that together draw this fraction of the load keep two holders
   *                     ({@link PlacementKnobs#HOT_LOAD_SHARE}); null: the default
   * @param hotMinNodeLoadShare a segment is hot only if it draws at least this share of a mean Historical's load
   *                     ({@link PlacementKnobs#HOT_MIN_NODE_LOAD_SHARE}); null: the default
   * @param backUpUnstable what Historicals slow now and then hold alone gets a second holder
   *                     ({@link PlacementKnobs#BACK_UP_UNSTABLE}); null: the default
   * @param minPlanGain  how far the plan in force may drift above a fresh plan's peak load before replicas move
   *                     ({@link PlacementKnobs#MIN_PLAN_GAIN}); null: the default
   * @param maxRebalanceDataPerHour the most data, as a share of the data set, the plan may load per hour to rebalance
   *                     ({@link PlacementKnobs#MAX_REBALANCE_DATA_PER_HOUR}); null: the default
   * @param rollback     walk every segment back to the getafix rule's {@code stockReplicants}, loading before
   *                     dropping, at the pace of {@code maxLoadsPerRound} and {@code maxDropsPerRound}; null: false
   */
  @JsonCreator
  public GetafixDynamicConfig(
      @JsonProperty("enabled") boolean enabled,
      @JsonProperty("dryRun") boolean dryRun,
      @JsonProperty("gamma") double gamma,
      @JsonProperty("minReplicas") int minReplicas,
      @JsonProperty("maxReplicas") int maxReplicas,
      @JsonProperty("roundPeriod") @Nullable String roundPeriod,
      @JsonProperty("maxLoadsPerRound") int maxLoadsPerRound,
      @JsonProperty("maxDropsPerRound") int maxDropsPerRound,
      @JsonProperty("hotLoadShare") @Nullable Double hotLoadShare,
      @JsonProperty("hotMinNodeLoadShare") @Nullable Double hotMinNodeLoadShare,
      @JsonProperty("backUpUnstable") @Nullable Boolean backUpUnstable,
      @JsonProperty("minPlanGain") @Nullable Double minPlanGain,
      @JsonProperty("maxRebalanceDataPerHour") @Nullable Double maxRebalanceDataPerHour,
      @JsonProperty("rollback") @Nullable Boolean rollback
  )
  {
    this.rollback = rollback != null && rollback;
    this.maxRebalanceDataPerHour = maxRebalanceDataPerHour == null
                                   ? PlacementKnobs.MAX_REBALANCE_DATA_PER_HOUR.defaultValue()
                                   : maxRebalanceDataPerHour;
    this.minPlanGain = minPlanGain == null ? PlacementKnobs.MIN_PLAN_GAIN.defaultValue() : minPlanGain;
    this.backUpUnstable = backUpUnstable == null ? PlacementKnobs.BACK_UP_UNSTABLE.defaultValue() : backUpUnstable;
    this.hotLoadShare = hotLoadShare == null ? PlacementKnobs.HOT_LOAD_SHARE.defaultValue() : hotLoadShare;
    this.hotMinNodeLoadShare = hotMinNodeLoadShare == null
                               ? PlacementKnobs.HOT_MIN_NODE_LOAD_SHARE.defaultValue()
                               : hotMinNodeLoadShare;
    this.enabled = enabled;
    this.dryRun = dryRun;
    this.gamma = gamma;
    this.minReplicas = minReplicas;
    this.maxReplicas = maxReplicas;
    this.roundPeriod = roundPeriod;
    this.maxLoadsPerRound = maxLoadsPerRound;
    this.maxDropsPerRound = maxDropsPerRound;
  }

  /** The config in force when none was ever set: Getafix on, not dry run, every knob at its default. */
  public static GetafixDynamicConfig defaults()
  {
    return new GetafixDynamicConfig(
        true,
        false,
        PlacementKnobs.GAMMA.defaultValue(),
        PlacementKnobs.MIN_REPLICAS.defaultValue(),
        PlacementKnobs.MAX_REPLICAS.defaultValue(),
        null,
        PlacementKnobs.MAX_LOADS_PER_ROUND.defaultValue(),
        PlacementKnobs.MAX_DROPS_PER_ROUND.defaultValue()
    );
  }

  /** Problems of this config, each naming the bad value; empty when it is valid. */
  public List<String> validate()
  {
    final List<String> problems = new ArrayList<>();
    addIfAny(problems, PlacementKnobs.GAMMA.problem(gamma));
    addIfAny(problems, PlacementKnobs.MIN_REPLICAS.problem(minReplicas));
    addIfAny(problems, PlacementKnobs.MAX_REPLICAS.problem(maxReplicas));
    addIfAny(problems, PlacementKnobs.maxReplicasProblem(minReplicas, maxReplicas));
    if (roundPeriod != null) {
      addIfAny(problems, roundPeriodProblem(roundPeriod));
    }
    addIfAny(problems, PlacementKnobs.MAX_LOADS_PER_ROUND.problem(maxLoadsPerRound));
    addIfAny(problems, PlacementKnobs.MAX_DROPS_PER_ROUND.problem(maxDropsPerRound));
    addIfAny(problems, PlacementKnobs.HOT_LOAD_SHARE.problem(hotLoadShare));
    addIfAny(problems, PlacementKnobs.HOT_MIN_NODE_LOAD_SHARE.problem(hotMinNodeLoadShare));
    addIfAny(problems, PlacementKnobs.MIN_PLAN_GAIN.problem(minPlanGain));
    addIfAny(problems, PlacementKnobs.MAX_REBALANCE_DATA_PER_HOUR.problem(maxRebalanceDataPerHour));
    if (rollback && dryRun) {
      problems.add("rollback and dryRun cannot both be true: a rollback loads and drops, a dry run must not");
    }
    return problems;
  }

  private static String roundPeriodProblem(String roundPeriod)
  {
    final long millis;
    try {
      millis = new Period(roundPeriod).toStandardDuration().getMillis();
    }
    catch (RuntimeException e) {
      return Knob.mustBe(PlacementKnobs.ROUND_PERIOD.name(), "an ISO-8601 period such as PT5S", roundPeriod);
    }
    final Knob<Duration> knob = PlacementKnobs.ROUND_PERIOD;
    return knob.accepts(Duration.ofMillis(millis)) ? null : Knob.mustBe(knob.name(), knob.requirement(), roundPeriod);
  }

  private static void addIfAny(List<String> problems, @Nullable String problem)
  {
    if (problem != null) {
      problems.add(problem);
    }
  }

  /** The round period of this config, or {@code fallbackMillis} (from {@code druid.getafix.round.period}). */
  public long roundPeriodMillisOr(long fallbackMillis)
  {
    return roundPeriod == null ? fallbackMillis : new Period(roundPeriod).toStandardDuration().getMillis();
  }

  @JsonProperty
  public double getHotLoadShare()
  {
    return hotLoadShare;
  }

  @JsonProperty
  public double getHotMinNodeLoadShare()
  {
    return hotMinNodeLoadShare;
  }

  @JsonProperty
  public boolean isBackUpUnstable()
  {
    return backUpUnstable;
  }

  @JsonProperty
  public double getMinPlanGain()
  {
    return minPlanGain;
  }

  @JsonProperty
  public double getMaxRebalanceDataPerHour()
  {
    return maxRebalanceDataPerHour;
  }

  /**
   * Whether the getafix rule walks every segment back to its {@code stockReplicants} instead of realising a plan.
   */
  @JsonProperty
  public boolean isRollback()
  {
    return rollback;
  }

  @JsonProperty
  public boolean isEnabled()
  {
    return enabled;
  }

  @JsonProperty
  public boolean isDryRun()
  {
    return dryRun;
  }

  @JsonProperty
  public double getGamma()
  {
    return gamma;
  }

  @JsonProperty
  public int getMinReplicas()
  {
    return minReplicas;
  }

  @JsonProperty
  public int getMaxReplicas()
  {
    return maxReplicas;
  }

  @JsonProperty
  @Nullable
  public String getRoundPeriod()
  {
    return roundPeriod;
  }

  @JsonProperty
  public int getMaxLoadsPerRound()
  {
    return maxLoadsPerRound;
  }

  @JsonProperty
  public int getMaxDropsPerRound()
  {
    return maxDropsPerRound;
  }

  @Override
  public boolean equals(Object o)
  {
    if (this == o) {
      return true;
    }
    if (!(o instanceof GetafixDynamicConfig that)) {
      return false;
    }
    return enabled == that.enabled && dryRun == that.dryRun && Double.compare(gamma, that.gamma) == 0
           && minReplicas == that.minReplicas && maxReplicas == that.maxReplicas
           && Objects.equals(roundPeriod, that.roundPeriod)
           && maxLoadsPerRound == that.maxLoadsPerRound && maxDropsPerRound == that.maxDropsPerRound
           && Double.compare(hotLoadShare, that.hotLoadShare) == 0
           && Double.compare(hotMinNodeLoadShare, that.hotMinNodeLoadShare) == 0
           && backUpUnstable == that.backUpUnstable
           && Double.compare(minPlanGain, that.minPlanGain) == 0
           && Double.compare(maxRebalanceDataPerHour, that.maxRebalanceDataPerHour) == 0
           && rollback == that.rollback;
  }

  @Override
  public int hashCode()
  {
    return Objects.hash(enabled, dryRun, gamma, minReplicas, maxReplicas, roundPeriod, maxLoadsPerRound,
                        maxDropsPerRound, hotLoadShare, hotMinNodeLoadShare, backUpUnstable, minPlanGain, maxRebalanceDataPerHour, rollback);
  }

  @Override
  public String toString()
  {
    return "GetafixDynamicConfig{enabled=" + enabled + ", dryRun=" + dryRun + ", gamma=" + gamma
           + ", minReplicas=" + minReplicas + ", maxReplicas=" + maxReplicas + ", roundPeriod=" + roundPeriod
           + ", maxLoadsPerRound=" + maxLoadsPerRound + ", maxDropsPerRound=" + maxDropsPerRound
           + ", hotLoadShare=" + hotLoadShare + ", hotMinNodeLoadShare=" + hotMinNodeLoadShare
           + ", backUpUnstable=" + backUpUnstable + ", minPlanGain=" + minPlanGain
           + ", maxRebalanceDataPerHour=" + maxRebalanceDataPerHour + ", rollback=" + rollback + "}";
  }

  /**
   * A POST body: every field optional, applied on top of the current config (like Druid's
   * {@code CoordinatorDynamicConfig.Builder}), so that {@code {"dryRun": true}} changes only dryRun.
   */
  public static final class Update
  {
    @JsonProperty
    @Nullable
    Boolean enabled;
    @JsonProperty
    @Nullable
    Boolean dryRun;
    @JsonProperty
    @Nullable
    Double gamma;
    @JsonProperty
    @Nullable
    Integer minReplicas;
    @JsonProperty
    @Nullable
    Integer maxReplicas;
    @Nullable
    String roundPeriod;
    /** Whether the body names roundPeriod: {@code "roundPeriod": null} unsets it, back to the runtime property. */
    boolean roundPeriodGiven;
    @JsonProperty
    @Nullable
    Integer maxLoadsPerRound;
    @JsonProperty
    @Nullable
    Integer maxDropsPerRound;
    @JsonProperty
    @Nullable
    Double hotLoadShare;
    @JsonProperty
    @Nullable
    Double hotMinNodeLoadShare;
    @JsonProperty
    @Nullable
    Boolean backUpUnstable;
    @JsonProperty
    @Nullable
    Double minPlanGain;
    @JsonProperty
    @Nullable
    Double maxRebalanceDataPerHour;
    @JsonProperty
    @Nullable
    Boolean rollback;

    @JsonProperty("roundPeriod")
    void setRoundPeriod(@Nullable String roundPeriod)
    {
      this.roundPeriod = roundPeriod;
      this.roundPeriodGiven = true;
    }

    public GetafixDynamicConfig applyTo(GetafixDynamicConfig current)
    {
      return new GetafixDynamicConfig(
          enabled == null ? current.enabled : enabled,
          dryRun == null ? current.dryRun : dryRun,
          gamma == null ? current.gamma : gamma,
          minReplicas == null ? current.minReplicas : minReplicas,
          maxReplicas == null ? current.maxReplicas : maxReplicas,
          roundPeriodGiven ? roundPeriod : current.roundPeriod,
          maxLoadsPerRound == null ? current.maxLoadsPerRound : maxLoadsPerRound,
          maxDropsPerRound == null ? current.maxDropsPerRound : maxDropsPerRound,
          hotLoadShare == null ? current.hotLoadShare : hotLoadShare,
          hotMinNodeLoadShare == null ? current.hotMinNodeLoadShare : hotMinNodeLoadShare,
          backUpUnstable == null ? current.backUpUnstable : backUpUnstable,
          minPlanGain == null ? current.minPlanGain : minPlanGain,
          maxRebalanceDataPerHour == null ? current.maxRebalanceDataPerHour : maxRebalanceDataPerHour,
          rollback == null ? current.rollback : rollback
      );
    }
  }
}
