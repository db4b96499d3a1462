package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QueueingControlExperimentTest
{
  @Test
  void aPhaseLastsItsUsualTimeOrLongEnoughForItsFewestIntervalsAtTheRate()
  {
    assertEquals(60_000, QueueingControlExperiment.Settings.phaseMillis(Duration.ofSeconds(60), 20, 15));
    // 20 intervals of 10 answers at 2/s take 100 s; with the margin of 2, 200 s.
    assertEquals(200_000, QueueingControlExperiment.Settings.phaseMillis(Duration.ofSeconds(60), 20, 2));
  }

  @Test
  void theScheduleStepsAfterTheLeadInAndRunsTheSecondPhaseAtTwiceTheRate()
  {
    final QueueingCalibration calibration = new QueueingCalibration(400, 130, 12, 7.8);
    final ArrivalSchedule schedule =
        QueueingControlExperiment.Settings.standard(false, "t-").schedule(calibration, 3);
    assertEquals(30_000, schedule.stepMillis());
    assertEquals(90_000, schedule.endMillis());
    assertEquals(60_000, schedule.afterStepMillis());
    assertEquals(7.8, schedule.ratePerSecond(), 0);
    assertEquals(15.6, schedule.rateAt(schedule.stepMillis()), 1e-12);
    assertEquals(3, schedule.seed());
    final ArrivalSchedule slow = QueueingControlExperiment.Settings.standard(true, "t-")
                                                                  .schedule(new QueueingCalibration(2_000, 600, 2, 1),
                                                                            1);
    assertEquals(80_000, slow.stepMillis(), "4 intervals at 1/s, twice over");
    assertEquals(80_000 + 200_000, slow.endMillis(), "20 intervals at 2/s, twice over");
  }
}
