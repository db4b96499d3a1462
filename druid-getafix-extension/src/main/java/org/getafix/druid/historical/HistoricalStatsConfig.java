package org.getafix.druid.historical;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
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
}
