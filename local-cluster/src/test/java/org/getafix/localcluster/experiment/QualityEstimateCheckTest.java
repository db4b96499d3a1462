package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QualityEstimateCheckTest
{
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void theEstimateIsReadFromTheEndpointAndSetAgainstTheTruth() throws Exception
  {
    final QualityEstimateCheck check = QualityEstimateCheck.of(MAPPER.readTree(
        "{\"sampledQuality\": {\"meanQuality\": 0.8, \"confidence95\": 0.05, \"measuredRuns\": 12,"
        + " \"effectiveRuns\": 9.5}}"
    ), 0.72);
    assertEquals(new QualityEstimateCheck(0.8, 0.05, 12, 9.5, 0.72), check);
    assertEquals(0.08, check.error(), 1e-12);
    assertFalse(check.truthWithinInterval(), "0.72 is below 0.8 - 0.05");
    assertTrue(new QualityEstimateCheck(0.8, 0.05, 12, 9.5, 0.76).truthWithinInterval());
    assertTrue(new QualityEstimateCheck(0.5, 0.25, 12, 9.5, 0.75).truthWithinInterval(), "the interval's edge");
    assertFalse(new QualityEstimateCheck(0.5, 0.25, 12, 9.5, 0.76).truthWithinInterval());
  }

  @Test
  void anEstimateTheBrokerCannotGiveIsNaNAndHoldsNoTruth() throws Exception
  {
    final QualityEstimateCheck nothing = QualityEstimateCheck.of(MAPPER.readTree(
        "{\"sampledQuality\": {\"meanQuality\": null, \"confidence95\": null, \"measuredRuns\": 0,"
        + " \"effectiveRuns\": 0.0}}"
    ), 0.7);
    assertTrue(Double.isNaN(nothing.estimate()) && Double.isNaN(nothing.confidence95()));
    assertTrue(Double.isNaN(nothing.error()));
    assertFalse(nothing.truthWithinInterval());
    assertFalse(QualityEstimateCheck.of(MAPPER.readTree(
        "{\"sampledQuality\": {\"meanQuality\": 0.7, \"confidence95\": null, \"measuredRuns\": 1}}"
    ), 0.7).truthWithinInterval(), "without an interval the truth is not within one, even when equal");
  }
}
