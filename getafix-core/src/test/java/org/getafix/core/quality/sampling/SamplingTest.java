package org.getafix.core.quality.sampling;

import org.getafix.core.contract.QualityKnobs;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SamplingTest
{
  @Test
  void queryIdSamplingIsDeterministicAndHitsTheRate()
  {
    final MatureSampler sampler = MatureSampler.byQueryId(QualityKnobs.MATURE_SAMPLE_RATE.defaultValue());
    final MatureSampler other = MatureSampler.byQueryId(QualityKnobs.MATURE_SAMPLE_RATE.defaultValue());
    int sampled = 0;
    for (int i = 0; i < 100_000; i++) {
      final String id = "query-" + i;
      final boolean decision = sampler.sample(id);
      assertEquals(decision, other.sample(id), "every Broker agrees on a query");
      assertEquals(decision, sampler.sample(id), "a retry gets the same decision");
      sampled += decision ? 1 : 0;
    }
    assertEquals(10_000, sampled, 400);
    assertFalse(sampler.sample(null));
  }

  @Test
  void seededSamplingRepeatsForTheSameSeedAndHitsTheRate()
  {
    final MatureSampler a = MatureSampler.seeded(0.2, 42);
    final MatureSampler b = MatureSampler.seeded(0.2, 42);
    final MatureSampler c = MatureSampler.seeded(0.2, 43);
    int sampled = 0;
    int differences = 0;
    for (int i = 0; i < 50_000; i++) {
      final boolean decision = a.sampleNext();
      assertEquals(decision, b.sampleNext());
      differences += decision != c.sampleNext() ? 1 : 0;
      sampled += decision ? 1 : 0;
    }
    assertEquals(10_000, sampled, 400);
    assertTrue(differences > 1000, "another seed gives another sequence");
  }

  @Test
  void ratesZeroAndOneAreExactAndOthersRejected()
  {
    for (int i = 0; i < 1000; i++) {
      assertFalse(MatureSampler.byQueryId(0).sample("q" + i));
      assertTrue(MatureSampler.byQueryId(1).sample("q" + i));
    }
    assertThrows(IllegalArgumentException.class, () -> MatureSampler.byQueryId(1.5));
    assertThrows(IllegalArgumentException.class, () -> MatureSampler.seeded(Double.NaN, 1));
  }

  @Test
  void replaysRunWhenIdleWhenUrgentAndAreDroppedWhenExpired()
  {
    final ReplaySchedule schedule = new ReplaySchedule(60_000, 0);
    // Busy front end, plenty of window left: wait.
    assertEquals(ReplaySchedule.Decision.WAIT, schedule.decide(1_000, 3, 2, 50, 200));
    // Idle, but queries arrive every 50 ms and a replay takes 200 ms: it would delay the next query. Wait.
    assertEquals(ReplaySchedule.Decision.WAIT, schedule.decide(1_000, 3, 0, 50, 200));
    // Idle and the mean gap (500 ms) exceeds the replay time: run.
    assertEquals(ReplaySchedule.Decision.RUN, schedule.decide(1_000, 3, 0, 500, 200));
    // Busy, but clearing 30 replays of 200 ms takes 6 s and only 5 s of the window remain: run now.
    assertEquals(ReplaySchedule.Decision.RUN, schedule.decide(55_000, 30, 4, 50, 200));
    assertEquals(ReplaySchedule.Decision.WAIT, schedule.decide(50_000, 30, 4, 50, 200), "6 s needed, 10 s left");
    // The oldest result would come too late to matter.
    assertEquals(ReplaySchedule.Decision.DROP, schedule.decide(60_000, 1, 0, 500, 200));
  }

  @Test
  void aBrokerWithAFewQueriesInFlightCanCountAsIdle()
  {
    final ReplaySchedule ubora = new ReplaySchedule(60_000, 0);
    final ReplaySchedule lenient = new ReplaySchedule(60_000, 2);
    assertEquals(ReplaySchedule.Decision.WAIT, ubora.decide(1_000, 1, 1, 500, 200), "one query outstanding: busy");
    assertEquals(ReplaySchedule.Decision.RUN, lenient.decide(1_000, 1, 2, 500, 200), "two are within the threshold");
    assertEquals(ReplaySchedule.Decision.WAIT, lenient.decide(1_000, 1, 3, 500, 200), "three are not");
    assertEquals(ReplaySchedule.Decision.WAIT, lenient.decide(1_000, 1, 0, 100, 200), "idle, but the gaps are short");
  }

  @Test
  void replayScheduleSurvivesUnknownMeasurements()
  {
    final ReplaySchedule schedule = new ReplaySchedule(1_000, 0);
    assertEquals(ReplaySchedule.Decision.WAIT, schedule.decide(10, 0, 0, 500, 20), "nothing queued");
    assertEquals(ReplaySchedule.Decision.WAIT, schedule.decide(Double.NaN, 1, 0, 500, 20));
    assertEquals(ReplaySchedule.Decision.WAIT, schedule.decide(10, 1, 0, Double.NaN, 20), "unknown gap: never idle");
    assertEquals(ReplaySchedule.Decision.RUN, schedule.decide(10, 1, 0, 500, Double.NaN), "unknown replay time: 0");
    assertThrows(IllegalArgumentException.class, () -> new ReplaySchedule(0, 0));
    assertThrows(IllegalArgumentException.class, () -> new ReplaySchedule(Double.POSITIVE_INFINITY, 0));
    assertThrows(IllegalArgumentException.class, () -> new ReplaySchedule(1_000, -1));
  }
}
