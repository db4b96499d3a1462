package org.getafix.quality;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.module.SimpleModule;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.quality.split.QualityProfileLearner;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.MatureRunReport;

/**
 * Lets Druid's ObjectMapper write and read the getafix-core records the quality monitor shows or keeps: the coverage
 * in the response context, the quality endpoint's mature runs, and the learned quality profiles' file. Druid's {@code DefaultObjectMapper} turns getter and field
 * auto-detection off, which makes a record serialise as {@code {}}; opening field visibility for these classes writes
 * each record component under its own name, so the field list stays defined once, in the record. Reading goes
 * through the records' canonical constructors.
 */
public class QualityJsonModule extends SimpleModule
{
  public QualityJsonModule()
  {
    super("GetafixQualityFormats");
    setMixInAnnotation(Coverage.class, CoverageComponents.class);
    setMixInAnnotation(MatureRunReport.class, RecordComponents.class);
    setMixInAnnotation(AnswerQuality.class, RecordComponents.class);
    setMixInAnnotation(QualityProfileLearner.Snapshot.class, RecordComponents.class);
    setMixInAnnotation(QualityProfileLearner.BinTotals.class, RecordComponents.class);
  }

  @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY)
  private abstract static class RecordComponents
  {
  }

  /** The coverage's components, and its total and whether it timed out, which a reader derives and ignores. */
  @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY)
  @JsonIgnoreProperties(value = {"total", "timedOut"}, allowGetters = true)
  private abstract static class CoverageComponents
  {
    @JsonProperty("total")
    abstract int total();

    @JsonProperty("timedOut")
    abstract boolean timedOut();
  }
}
