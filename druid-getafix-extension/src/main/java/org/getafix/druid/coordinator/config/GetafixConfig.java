package org.getafix.druid.coordinator.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.druid.client.DruidServer;
import org.apache.druid.java.util.common.StringUtils;
import org.getafix.core.contract.Knob;
import org.getafix.core.contract.OwnedProperties;
import org.getafix.core.contract.PlacementKnobs;
import org.getafix.core.placement.capacity.CapacityEstimators;
import org.getafix.core.placement.packing.SplitPolicy;
import org.getafix.core.placement.tiering.Tier;
import org.joda.time.Period;

import java.time.Duration;
import java.util.Map;

/**
 * Coordinator runtime properties {@code druid.getafix.*} (documented in docs/configuration.md). What changes at run
 * time lives in {@link GetafixDynamicConfig} instead.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GetafixConfig
{
  public static final String PREFIX = OwnedProperties.ROOT;

  /** The Druid tier whose Historicals Getafix plans; other tiers of a getafix rule are left to Druid. */
  @JsonProperty
  private String tier = DruidServer.DEFAULT_TIER;

  @JsonProperty
  private Round round = new Round();

  @JsonProperty
  private Stats stats = new Stats();

  @JsonProperty
  private Popularity popularity = new Popularity();

  @JsonProperty
  private Capacity capacity = new Capacity();

  @JsonProperty
  private Planning planning = new Planning();

  /**
   * Historical (host:port) → the tier its hardware puts it in, e.g. {@code {"h1:8083":"HOT"}}; when set,
   * {@code getafix/tiering/accuracy} is emitted every round.
   */
  @JsonProperty
  private Map<String, Tier> hardwareTiers = Map.of();

  public String getTier()
  {
    return tier;
  }

  public long getRoundPeriodMillis()
  {
    return round.period.toStandardDuration().getMillis();
  }

  public long getStatsTimeoutMillis()
  {
    return stats.timeout.toStandardDuration().getMillis();
  }

  public double getPopularityDecay()
  {
    return popularity.decay;
  }

  public boolean isPopularityBiasCorrected()
  {
    return popularity.biasCorrection;
  }

  public boolean isPopularityInherited()
  {
    return popularity.inheritance;
  }

  /**
   * A name in getafix-core's {@link CapacityEstimators#REGISTRY}: {@code throughput} (the default) or
   * {@code cpu-time}.
   *
   * @throws IllegalArgumentException naming any other value and the known ones
   */
  public String getCapacityEstimator()
  {
    if (!CapacityEstimators.REGISTRY.contains(capacity.estimator)) {
      throw new IllegalArgumentException(
          Knob.mustBe(
              PlacementKnobs.CAPACITY_ESTIMATOR.name(),
              "one of " + CapacityEstimators.REGISTRY.names(),
              capacity.estimator
          )
      );
    }
    return capacity.estimator;
  }

  public double getCapacitySmoothing()
  {
    return capacity.smoothing;
  }

  /**
   * How the planner splits a segment that no free bin takes whole: {@code even} (the default) or {@code thesis}.
   *
   * @throws IllegalArgumentException naming any other value
   */
  public SplitPolicy getSplitPolicy()
  {
    switch (StringUtils.toLowerCase(String.valueOf(planning.split))) {
      case "even":
        return SplitPolicy.EVEN;
      case "thesis":
        return SplitPolicy.THESIS;
      default:
        throw new IllegalArgumentException(
            "druid.getafix.planning.split must be [even] or [thesis], got [" + planning.split + "]"
        );
    }
  }

  /**
   * Fails on the first bad property, naming it and its value; the Coordinator does not start with it.
   *
   * @throws IllegalArgumentException naming the property
   */
  public GetafixConfig validate()
  {
    PlacementKnobs.ROUND_PERIOD.checkAs("druid.getafix.round.period", Duration.ofMillis(getRoundPeriodMillis()));
    if (getStatsTimeoutMillis() <= 0) {
      throw new IllegalArgumentException(Knob.mustBe("druid.getafix.stats.timeout", "a positive period", stats.timeout));
    }
    PlacementKnobs.POPULARITY_DECAY.check(popularity.decay);
    PlacementKnobs.CAPACITY_SMOOTHING.check(capacity.smoothing);
    getCapacityEstimator();
    getSplitPolicy();
    return this;
  }

  public Map<String, Tier> getHardwareTiers()
  {
    return hardwareTiers == null ? Map.of() : hardwareTiers;
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Round
  {
    /** Default round period, used while the dynamic config does not set {@code roundPeriod}. */
    @JsonProperty
    private Period period = new Period(PlacementKnobs.ROUND_PERIOD.defaultValue().toMillis());
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Stats
  {
    /** How long one pull of a Historical's stats may take before that node counts as missing this round. */
    @JsonProperty
    private Period timeout = Period.seconds(2);
  }

  /** What each property does, its default and its range: {@link PlacementKnobs}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Popularity
  {
    @JsonProperty
    private double decay = PlacementKnobs.POPULARITY_DECAY.defaultValue();

    @JsonProperty
    private boolean biasCorrection = PlacementKnobs.POPULARITY_BIAS_CORRECTION.defaultValue();

    @JsonProperty
    private boolean inheritance = PlacementKnobs.POPULARITY_INHERITANCE.defaultValue();
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Planning
  {
    /**
     * {@code even}: a hot segment in equal parts, as Brokers routing by connection count spread it anyway;
     * {@code thesis}: Algorithm 3.1's fill-and-re-queue split, fewest replicas, for Brokers that route by the plan.
     */
    @JsonProperty
    private String split = "even";
  }

  /** What each property does, its default and its range: {@link PlacementKnobs}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Capacity
  {
    @JsonProperty
    private String estimator = PlacementKnobs.CAPACITY_ESTIMATOR.defaultValue();

    @JsonProperty
    private double smoothing = PlacementKnobs.CAPACITY_SMOOTHING.defaultValue();
  }
}
