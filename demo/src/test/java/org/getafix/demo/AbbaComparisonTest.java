package org.getafix.demo;

import org.getafix.demo.AbbaComparison.Figure;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AbbaComparisonTest
{
  private record Run(String setup, double rate) implements AbbaComparison.Run
  {
  }

  private static final AbbaComparison<Run> COMPARISON = new AbbaComparison<>(
      "test", List.of("a", "b"), "b", "a", List.of(new Figure<>("rate", Run::rate)), List.of(new Figure<>("rate", Run::rate))
  );

  @Test
  void repeatRunsEachSetupInTheScheduledOrderAndSaysWhatItMeasured() throws Exception
  {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final BenchRun bench = new BenchRun("test", true, 3, false, 0.1, Path.of("."), Path.of("."), new PrintStream(out, true, StandardCharsets.UTF_8));
    final double[] rate = {0};
    final List<AbbaComparison.Repetition<Run>> done = COMPARISON.repeat(bench, setup -> new Run(setup, ++rate[0]));
    assertEquals(List.of("a,b", "b,a", "a,b"), done.stream().map(AbbaComparison.Repetition::order).toList());
    assertEquals(List.of(2.0, 3 / 4.0, 6 / 5.0), COMPARISON.ratios(done).get(0).values(), "b over a, in each repetition");
    assertEquals(List.of(true, false, true), COMPARISON.firstOrder(done));
    final String progress = out.toString(StandardCharsets.UTF_8);
    assertTrue(progress.contains("[bench test] repetition 2 of 3: b, then a"), progress);
    assertTrue(progress.contains("[bench test]   b: rate 3"), progress);
  }

  @Test
  void secondFirstStartsWithTheSecondSetupAndStillAlternates()
  {
    assertEquals(List.of(List.of("b", "a"), List.of("a", "b"), List.of("b", "a")), COMPARISON.schedule(3, true));
    assertEquals(List.of(List.of("a", "b"), List.of("b", "a")), COMPARISON.schedule(2, false));
  }

  @Test
  void aRatioOverNothingIsNoRatio()
  {
    final List<AbbaComparison.Repetition<Run>> zero = List.of(new AbbaComparison.Repetition<>(List.of(new Run("a", 0), new Run("b", 1))));
    assertTrue(Double.isNaN(COMPARISON.ratios(zero).get(0).values().get(0)));
  }

  @Test
  void setupsNameTheirMediansByOrderInCamelCase()
  {
    assertEquals("ConnectionCount", AbbaComparison.key("connectionCount"));
    assertEquals("AnswerQuality", AbbaComparison.key("ANSWER_QUALITY"));
    assertThrows(IllegalArgumentException.class, () -> new AbbaComparison<Run>("x", List.of("a", "b"), "a", "a", List.of(), List.of()));
  }
}
