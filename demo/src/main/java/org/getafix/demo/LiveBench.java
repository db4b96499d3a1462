package org.getafix.demo;

/**
 * {@code ./getafix bench live}: the demo's comparison of stock Druid and druid-getafix, repeated on one cluster with
 * the order reversed every other time (ABBA, three repetitions unless asked), into
 * {@code target/getafix-bench/report.html} and {@code results.json}, with each repetition's own report beside them.
 * See docs/benchmarks.md.
 */
public final class LiveBench
{
  private LiveBench()
  {
  }

  public static void main(String[] args)
  {
    Demo.launch(args, DemoOptions::parseBench, DemoOptions.BENCH_USAGE, "target/getafix-bench");
  }
}
