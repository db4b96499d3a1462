package org.getafix.druid.historical;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.getafix.core.contract.Knob;
import org.joda.time.Period;

/** {@code druid.getafix.stats.*} on Historicals. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class HistoricalStatsConfig
{
  public static final String PREFIX = "druid.getafix.stats";

  /** Counters of a segment not scanned for this long are forgotten (bounds memory when segments churn). */
  @JsonProperty
  private Period idleEvictionPeriod = Period.hours(1);

  public long getIdleEvictionMillis()
  {
    return idleEvictionPeriod.toStandardDuration().getMillis();
  }

  /**
   * Fails on a bad property, naming it and its value; the node does not start with it.
   *
   * @throws IllegalArgumentException naming the property
   */
  public HistoricalStatsConfig validate()
  {
    if (idleEvictionPeriod == null || getIdleEvictionMillis() <= 0) {
      throw new IllegalArgumentException(Knob.mustBe(PREFIX + ".idleEvictionPeriod", "a positive period", idleEvictionPeriod));
    }
    return this;
  }
}
