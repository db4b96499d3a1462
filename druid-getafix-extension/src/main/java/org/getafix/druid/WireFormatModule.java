package org.getafix.druid;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.databind.module.SimpleModule;
import org.getafix.core.wire.HistoricalStatsReport;
import org.getafix.core.wire.RoutingTableMessage;

/**
 * Lets Druid's ObjectMapper write the getafix-core wire records. Plain Jackson 2.12 writes records by their
 * accessors, but Druid's {@code DefaultObjectMapper} turns getter and field auto-detection off, which makes a record
 * serialise as {@code {}}. Opening field visibility for these classes only writes each record component under its
 * own name, so the field list stays defined once, in the record. Reading needs nothing: Jackson reads records
 * through their canonical constructor.
 */
public class WireFormatModule extends SimpleModule
{
  public WireFormatModule()
  {
    super("GetafixWireFormats");
    setMixInAnnotation(HistoricalStatsReport.class, RecordComponents.class);
    setMixInAnnotation(HistoricalStatsReport.SegmentStats.class, RecordComponents.class);
    setMixInAnnotation(RoutingTableMessage.class, RecordComponents.class);
  }

  @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY)
  private abstract static class RecordComponents
  {
  }
}
