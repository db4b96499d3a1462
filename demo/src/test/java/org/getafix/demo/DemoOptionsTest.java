package org.getafix.demo;

import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoOptionsTest
{
  @Test
  void defaultsAreTheFullRunOnThreeUnequalHistoricals()
  {
    final DemoOptions options = DemoOptions.parse();
    assertFalse(options.quick());
    assertEquals(Duration.ofSeconds(120), options.measure());
    assertEquals(List.of(1.0, 0.5, 0.25), options.cpuQuotas());
    assertEquals(List.of(Strategy.STOCK, Strategy.GETAFIX), options.strategies());
    assertEquals(100, options.hours());
    assertFalse(options.keepRunning());
    assertEquals(JitCompilerCpu.WarmUp.WORKLOAD, options.jitWarmUp());
    assertFalse(options.backUpUnstable());
    assertTrue(DemoOptions.parse("--backup").backUpUnstable());
    assertNull(options.redundancy());
    assertFalse(options.hedge());
  }

  @Test
  void redundancyNamesAModeAndHedges()
  {
    final DemoOptions zoolander = DemoOptions.parse("--redundancy", "zoolander");
    assertEquals("ZOOLANDER", zoolander.redundancy());
    assertTrue(zoolander.hedge(), "copies race as hedges do");
    assertEquals("SPARE", DemoOptions.parse("--redundancy", "Spare").redundancy());
    final IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--redundancy", "always"));
    assertTrue(e.getMessage().contains("spare or zoolander"), e.getMessage());
  }

  @Test
  void quickShrinksDataAndPhasesButDurationWins()
  {
    final DemoOptions quick = DemoOptions.parse("--quick");
    assertTrue(quick.quick());
    assertEquals(Duration.ofSeconds(30), quick.measure());
    assertTrue(quick.hours() < DemoOptions.parse().hours());
    assertEquals(Duration.ofSeconds(45), DemoOptions.parse("--quick", "--duration", "45").measure());
    assertEquals(Duration.ofSeconds(10), quick.jitWarmUp().window(), "windows in proportion to a 30 s measurement");
    assertEquals(
        JitCompilerCpu.WarmUp.WORKLOAD.deadline(),
        quick.jitWarmUp().deadline(),
        "as long as the full run's to settle the first phase's compilers"
    );
  }

  @Test
  void theBudgetIsStocksP99UnlessGiven()
  {
    assertEquals(null, DemoOptions.parse("--quick").budgetMs());
    assertEquals(250L, DemoOptions.parse("--budget-ms", "250").budgetMs());
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--budget-ms", "0"));
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--budget-ms", "fast"));

    final PhaseRecord stock = DemoReportTest.stock();
    // The fixture's stock latencies are 2..200 ms: p99 198 ms, rounded up to 200.
    assertEquals(200, Demo.budget(null, List.of(stock)).ms());
    assertEquals(250, Demo.budget(250L, List.of(stock)).ms());
    assertEquals(Demo.DEFAULT_BUDGET_MS, Demo.budget(null, List.of()).ms());
  }

  @Test
  void theStragglerTimeoutClientsAndBudgetCanBeChosen()
  {
    final DemoOptions defaults = DemoOptions.parse();
    assertEquals(DemoOptions.DEFAULT_STRAGGLER_CORES, defaults.stragglerCores());
    assertEquals(null, defaults.timeoutMs());
    assertEquals(DemoOptions.DEFAULT_CLIENTS, defaults.clients());
    assertTrue(defaults.budgeted());

    final DemoOptions harsh = DemoOptions.parseBench(
        "--straggler-cores", "0.05", "--timeout-ms", "400", "--clients", "6", "--no-budget", "--hedge"
    );
    assertEquals(0.05, harsh.stragglerCores());
    assertEquals(400L, harsh.timeoutMs());
    assertEquals(6, harsh.clients());
    assertFalse(harsh.budgeted());
    assertTrue(harsh.hedge());

    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--straggler-cores", "0"));
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--straggler-cores", "slow"));
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--timeout-ms", "-1"));
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--clients", "0"));
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--clients", "65"));
    final IllegalArgumentException both = assertThrows(
        IllegalArgumentException.class,
        () -> DemoOptions.parse("--no-budget", "--budget-ms", "200")
    );
    assertTrue(both.getMessage().contains("contradict"), both.getMessage());
  }

  @Test
  void stallsArePeriodAndLengthInSeconds()
  {
    assertEquals(null, DemoOptions.parse().stalls(), "a straggler from halfway unless asked");
    final DemoOptions.Stalls stalls = DemoOptions.parse("--stalls", "10:1.5").stalls();
    assertEquals(Duration.ofSeconds(10), stalls.every());
    assertEquals(Duration.ofMillis(1500), stalls.lasting());
    for (String bad : List.of("10", "10:10", "10:0", "1.5:10", "ten:1", "10:1:2", "-10:1")) {
      assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--stalls", bad), bad);
    }
  }

  @Test
  void historicalsAndQuotasMustAgree()
  {
    assertEquals(List.of(1.0, 0.5, 0.5, 0.25), DemoOptions.parse("--historicals", "4").cpuQuotas());
    assertEquals(List.of(2.0, 1.0), DemoOptions.parse("--quotas", "2.0, 1.0").cpuQuotas());
    assertEquals(2, DemoOptions.parse("--quotas", "2.0,1.0").historicals());
    final IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class,
        () -> DemoOptions.parse("--historicals", "4", "--quotas", "1.0,0.5")
    );
    assertTrue(e.getMessage().contains("2 values for 4 Historicals"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--historicals", "1"));
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--quotas", "1.0,zero"));
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--quotas", "1.0,0"));
  }

  @Test
  void repetitionsAlternateTheOrder()
  {
    assertEquals(1, DemoOptions.parse().repetitions());
    assertEquals(List.of(List.of(Strategy.STOCK, Strategy.GETAFIX)), DemoOptions.parse().schedule());
    final DemoOptions bench = DemoOptions.parseBench("--quick");
    assertEquals(DemoOptions.BENCH_REPETITIONS, bench.repetitions());
    assertEquals(
        List.of(
            List.of(Strategy.STOCK, Strategy.GETAFIX),
            List.of(Strategy.GETAFIX, Strategy.STOCK),
            List.of(Strategy.STOCK, Strategy.GETAFIX)
        ),
        bench.schedule()
    );
    assertEquals(
        List.of(List.of(Strategy.GETAFIX, Strategy.STOCK), List.of(Strategy.STOCK, Strategy.GETAFIX)),
        DemoOptions.parse("--strategies", "getafix,stock", "--repetitions", "2").schedule()
    );
    assertFalse(bench.hedge());
    assertTrue(DemoOptions.parseBench("--hedge").hedge());
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--repetitions", "0"));
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--repetitions", "21"));
    final IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DemoOptions.parseBench("--keep-running"));
    assertTrue(e.getMessage().contains("stops its cluster"), e.getMessage());
  }

  @Test
  void strategiesRunInTheOrderGiven()
  {
    assertEquals(List.of(Strategy.GETAFIX, Strategy.STOCK), DemoOptions.parse("--strategies", "getafix,stock").strategies());
    assertEquals(List.of(Strategy.STOCK, Strategy.GETAFIX), DemoOptions.parse("--strategies", "stock, getafix").strategies());
    assertEquals(List.of(Strategy.GETAFIX), DemoOptions.parse("--strategies", "getafix,getafix").strategies());
    final IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--strategies", "random"));
    assertTrue(e.getMessage().contains("stock, getafix"), e.getMessage());
  }

  @Test
  void badArgumentsSayWhatIsWrong()
  {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--duration"))
                   .getMessage().contains("needs a value"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--duration", "5"))
                   .getMessage().contains("at least 10"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--fast"))
                   .getMessage().contains("unknown option --fast"));
    assertTrue(DemoOptions.parse("--keep-running").keepRunning());
  }
}
