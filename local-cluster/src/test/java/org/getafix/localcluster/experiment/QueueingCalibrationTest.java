package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueueingCalibrationTest
{
  /** Whole answers: 130 ms alone at 7.7/s, 10/s at 2 clients, 12/s at 4, 11/s at 5 (past capacity). */
  private static final ConcurrencyProbe PROBE = new ConcurrencyProbe(List.of(
      new ConcurrencyProbe.Level(1, 30, 130, 200, 7.7),
      new ConcurrencyProbe.Level(2, 30, 200, 300, 10),
      new ConcurrencyProbe.Level(3, 30, 260, 400, 11.5),
      new ConcurrencyProbe.Level(4, 30, 330, 500, 12),
      new ConcurrencyProbe.Level(5, 30, 450, 700, 11)
  ));

  @Test
  void theTargetComesFromTheAnswersAloneAndTheLoadFromTheBestLevel()
  {
    final QueueingCalibration calibration = QueueingCalibration.of(PROBE);
    assertEquals(390, calibration.targetMillis(), "3 x 130 ms");
    assertEquals(12, calibration.capacityPerSecond(), 1e-9, "the best level, not the last");
    assertEquals(0.65 * 12, calibration.ratePerSecond(), 1e-9);
    assertEquals(2 * 0.65 * 12, calibration.rateAfterStep(), 1e-9);
    assertEquals(1.3, calibration.loadAfterStep(), 1e-9);
  }

  @Test
  void afterTheStepWholeAnswersWouldQueuePastTheTargetWithinSeconds()
  {
    final QueueingCalibration calibration = QueueingCalibration.of(PROBE);
    // The backlog grows by 15.6 - 12 = 3.6 a second and drains at 12 a second: 0.3 s more wait per second.
    assertEquals(300, calibration.wholeAnswerQueueMillis(1), 1e-6);
    assertEquals(18_000, calibration.wholeAnswerQueueMillis(60), 1e-6);
    assertEquals(1.3, calibration.secondsUntilWholeAnswersWaitTarget(), 1e-9, "390 ms at 0.3 s a second");
    assertEquals(15.6 * 0.39, calibration.inFlightAtTargetAfterStep(), 1e-9);
    assertTrue(calibration.valid());
  }

  @Test
  void aLoadWithinCapacityOrBeyondTheBrokersPoolsIsNotThePlantMeant()
  {
    final QueueingCalibration withinCapacity = new QueueingCalibration(400, 130, 12, 5);
    assertEquals(0, withinCapacity.wholeAnswerQueueMillis(60), 0);
    assertEquals(Double.POSITIVE_INFINITY, withinCapacity.secondsUntilWholeAnswersWaitTarget());
    assertFalse(withinCapacity.valid(), "10/s never queues past capacity");
    assertFalse(new QueueingCalibration(2_000, 600, 4, 2.6).valid(), "5.2/s x 2 s = 10.4 in flight, over 8");
    assertEquals(false, new QueueingCalibration(2_000, 600, 4, 2.6).figures(60).get("valid"));
  }
}
