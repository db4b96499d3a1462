package org.getafix.druid.coordinator.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.getafix.core.placement.PlacementConstraints;
import org.joda.time.Period;

import javax.annotation.Nullable;
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

  /**
   * As {@link #GetafixDynamicConfig(boolean, boolean, double, int, int, String, int, int, Double, Double)}, with the
   * default hot floor.
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
    this(enabled, dryRun, gamma, minReplicas, maxReplicas, roundPeriod, maxLoadsPerRound, maxDropsPerRound, null, null);
  }

  /**
   * @param hotLoadShare the hottest segments that together draw this fraction of the load keep two holders
   *                     (getafix-core's {@code PlacementConstraints#hotLoadShare}); null: the default
   * @param hotMinNodeLoadShare a segment is hot only if it draws at least this share of a mean Historical's load
   *                     ({@code PlacementConstraints#hotMinNodeLoadShare}); null: the default
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
      @JsonProperty("hotMinNodeLoadShare") @Nullable Double hotMinNodeLoadShare
  )
  {
    this.hotLoadShare = hotLoadShare == null ? PlacementConstraints.DEFAULT.hotLoadShare() : hotLoadShare;
    this.hotMinNodeLoadShare = hotMinNodeLoadShare == null
                               ? PlacementConstraints.DEFAULT.hotMinNodeLoadShare()
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

  /** The config in force when none was ever set: Getafix on, thesis γ = 20%, 1 to 3 replicas, 50 loads/drops. */
  public static GetafixDynamicConfig defaults()
  {
    return new GetafixDynamicConfig(true, false, 0.20, 1, 3, null, 50, 50);
  }

  /** Problems of this config, each naming the bad value; empty when it is valid. */
  public List<String> validate()
  {
    final List<String> problems = new ArrayList<>();
    if (!Double.isFinite(gamma) || gamma < 0 || gamma > 1) {
      problems.add("gamma must be in [0, 1], got [" + gamma + "]");
    }
    if (minReplicas < 1) {
      problems.add("minReplicas must be >= 1, got [" + minReplicas + "]");
    }
    if (maxReplicas < minReplicas) {
      problems.add("maxReplicas must be >= minReplicas [" + minReplicas + "], got [" + maxReplicas + "]");
    }
    if (roundPeriod != null) {
      try {
        final long millis = new Period(roundPeriod).toStandardDuration().getMillis();
        if (millis < 1000) {
          problems.add("roundPeriod must be at least PT1S, got [" + roundPeriod + "]");
        }
      }
      catch (RuntimeException e) {
        problems.add("roundPeriod must be an ISO-8601 period such as PT5S, got [" + roundPeriod + "]");
      }
    }
    if (maxLoadsPerRound < 0) {
      problems.add("maxLoadsPerRound must be >= 0, got [" + maxLoadsPerRound + "]");
    }
    if (maxDropsPerRound < 0) {
      problems.add("maxDropsPerRound must be >= 0, got [" + maxDropsPerRound + "]");
    }
    if (!Double.isFinite(hotLoadShare) || hotLoadShare < 0 || hotLoadShare > 1) {
      problems.add("hotLoadShare must be in [0, 1], got [" + hotLoadShare + "]");
    }
    if (!Double.isFinite(hotMinNodeLoadShare) || hotMinNodeLoadShare < 0 || hotMinNodeLoadShare > 1) {
      problems.add("hotMinNodeLoadShare must be in [0, 1], got [" + hotMinNodeLoadShare + "]");
    }
    return problems;
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
           && Double.compare(hotMinNodeLoadShare, that.hotMinNodeLoadShare) == 0;
  }

  @Override
  public int hashCode()
  {
    return Objects.hash(enabled, dryRun, gamma, minReplicas, maxReplicas, roundPeriod, maxLoadsPerRound,
                        maxDropsPerRound, hotLoadShare, hotMinNodeLoadShare);
  }

  @Override
  public String toString()
  {
    return "GetafixDynamicConfig{enabled=" + enabled + ", dryRun=" + dryRun + ", gamma=" + gamma
           + ", minReplicas=" + minReplicas + ", maxReplicas=" + maxReplicas + ", roundPeriod=" + roundPeriod
           + ", maxLoadsPerRound=" + maxLoadsPerRound + ", maxDropsPerRound=" + maxDropsPerRound
           + ", hotLoadShare=" + hotLoadShare + ", hotMinNodeLoadShare=" + hotMinNodeLoadShare + "}";
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
    @JsonProperty
    @Nullable
    String roundPeriod;
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

    public GetafixDynamicConfig applyTo(GetafixDynamicConfig current)
    {
      return new GetafixDynamicConfig(
          enabled == null ? current.enabled : enabled,
          dryRun == null ? current.dryRun : dryRun,
          gamma == null ? current.gamma : gamma,
          minReplicas == null ? current.minReplicas : minReplicas,
          maxReplicas == null ? current.maxReplicas : maxReplicas,
          roundPeriod == null ? current.roundPeriod : roundPeriod,
          maxLoadsPerRound == null ? current.maxLoadsPerRound : maxLoadsPerRound,
          maxDropsPerRound == null ? current.maxDropsPerRound : maxDropsPerRound,
          hotLoadShare == null ? current.hotLoadShare : hotLoadShare,
          hotMinNodeLoadShare == null ? current.hotMinNodeLoadShare : hotMinNodeLoadShare
      );
    }
  }
}
