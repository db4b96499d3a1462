package org.getafix.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.demo.RepetitionsReport.Measure;
import org.getafix.simulator.report.HtmlReporter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleBiFunction;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Two or more setups of a {@code ./getafix bench live} experiment compared on one cluster, each repetition running
 * all, the order reversed every other repetition (ABBA, or ABCCBA): the schedule, the ratios taken within each
 * repetition with their medians apart by order, each setup's own figures, and the report ({@link RoutingBench},
 * {@link AdmissionBench}).
 *
 * @param experiment   its name in the bench, e.g. {@code routing}
 * @param setups       the setups, in the order of the odd repetitions
 * @param numerator    the setup whose figures the ratios divide
 * @param denominator  the setup they are divided by
 * @param ratioFigures the figures taken as ratios
 * @param setupFigures the figures given for each setup on its own
 * @param pairRatios   ratios of any two setups' runs in a repetition that no single figure gives (e.g. throughput
 *                     at equal quality), after the {@code ratioFigures}
 * @param <R>          what one setup measures in one repetition
 */
record AbbaComparison<R extends AbbaComparison.Run>(
    String experiment,
    List<String> setups,
    String numerator,
    String denominator,
    List<Figure<R>> ratioFigures,
    List<Figure<R>> setupFigures,
    List<PairRatio<R>> pairRatios
)
{
  private static final ObjectMapper MAPPER = new ObjectMapper();

  AbbaComparison
  {
    setups = List.copyOf(setups);
    ratioFigures = List.copyOf(ratioFigures);
    setupFigures = List.copyOf(setupFigures);
    pairRatios = List.copyOf(pairRatios);
    if (setups.size() < 2 || setups.stream().distinct().count() != setups.size() || !setups.contains(numerator)
        || !setups.contains(denominator) || numerator.equals(denominator)) {
      throw new IllegalArgumentException("two or more setups, one on each side of the ratios: " + setups);
    }
    for (PairRatio<R> pair : pairRatios) {
      if (!setups.contains(pair.numerator()) || !setups.contains(pair.denominator())) {
        throw new IllegalArgumentException(pair.name() + " compares setups not in " + setups);
      }
    }
  }

  /** Without pair ratios. */
  AbbaComparison(
      String experiment,
      List<String> setups,
      String numerator,
      String denominator,
      List<Figure<R>> ratioFigures,
      List<Figure<R>> setupFigures
  )
  {
    this(experiment, setups, numerator, denominator, ratioFigures, setupFigures, List.of());
  }

  /** What one setup measured in one repetition, named by the setup. */
  interface Run
  {
    String setup();
  }

  /** A figure of a {@link Run}, by name. */
  record Figure<R>(String name, ToDoubleFunction<R> of)
  {
  }

  /** A ratio computed from two setups' runs of the same repetition, {@code numerator}'s first. */
  record PairRatio<R>(String name, String numerator, String denominator, ToDoubleBiFunction<R, R> of)
  {
  }

  /** The runs of one repetition, in the order they ran. */
  record Repetition<R extends Run>(List<R> runs)
  {
    Repetition
    {
      runs = List.copyOf(runs);
    }

    R of(String setup)
    {
      return runs.stream().filter(r -> r.setup().equals(setup)).findFirst().orElseThrow(
          () -> new IllegalArgumentException("no run of " + setup + " in " + runs)
      );
    }

    String order()
    {
      return runs.stream().map(Run::setup).collect(Collectors.joining(","));
    }
  }

  /** Runs one setup in a repetition and returns what it measured. */
  @FunctionalInterface
  interface Runner<R extends Run>
  {
    R run(String setup) throws Exception;
  }

  /**
   * The setups of each repetition: as in {@link #setups}, then reversed, and so on; or reversed first if
   * {@code secondFirst}.
   */
  List<List<String>> schedule(int repetitions, boolean secondFirst)
  {
    final List<String> reversed = new ArrayList<>(setups);
    Collections.reverse(reversed);
    final int first = secondFirst ? 1 : 0;
    return IntStream.range(first, first + repetitions)
                    .mapToObj(r -> r % 2 == 0 ? setups : List.copyOf(reversed))
                    .toList();
  }

  /**
   * Runs {@code bench}'s repetitions as {@link #schedule} orders them, saying in its progress which runs and what
   * each measured.
   */
  List<Repetition<R>> repeat(BenchRun bench, Runner<R> runner) throws Exception
  {
    final List<Repetition<R>> done = new ArrayList<>();
    for (List<String> order : schedule(bench.repetitions(), bench.secondFirst())) {
      bench.progress("repetition " + (done.size() + 1) + " of " + bench.repetitions() + ": "
                     + String.join(", then ", order));
      final List<R> runs = new ArrayList<>();
      for (String setup : order) {
        final R run = runner.run(setup);
        bench.progress("  " + setup + ": " + setupFigures.stream()
                                                         .map(f -> f.name() + " " + fixed(f.of().applyAsDouble(run)))
                                                         .collect(Collectors.joining(", ")));
        runs.add(run);
      }
      done.add(new Repetition<>(runs));
    }
    return done;
  }

  /**
   * Each of {@link #ratioFigures}: the numerator's over the denominator's in the same repetition; then each of
   * {@link #pairRatios}.
   */
  List<Measure> ratios(List<Repetition<R>> repetitions)
  {
    final List<Measure> ratios = new ArrayList<>(ratioFigures.stream().map(f -> new Measure(f.name(), repetitions.stream().map(r -> {
      final double below = f.of().applyAsDouble(r.of(denominator));
      return below > 0 ? f.of().applyAsDouble(r.of(numerator)) / below : Double.NaN;
    }).toList())).toList());
    for (PairRatio<R> pair : pairRatios) {
      ratios.add(new Measure(pair.name(), repetitions.stream().map(
          r -> pair.of().applyAsDouble(r.of(pair.numerator()), r.of(pair.denominator()))
      ).toList()));
    }
    return ratios;
  }

  /** Each of {@link #setupFigures} for each setup. */
  List<Measure> figures(List<Repetition<R>> repetitions)
  {
    return setups.stream().flatMap(setup -> setupFigures.stream().map(f -> new Measure(
        setup + ": " + f.name(),
        repetitions.stream().map(r -> f.of().applyAsDouble(r.of(setup))).toList()
    ))).toList();
  }

  /** The setup the even repetitions run first: the last of {@link #setups}. */
  private String reversedFirst()
  {
    return setups.get(setups.size() - 1);
  }

  /** Per repetition, whether the first of {@link #setups} ran first (else the last did). */
  List<Boolean> firstOrder(List<Repetition<R>> repetitions)
  {
    return repetitions.stream().map(r -> r.runs().get(0).setup().equals(setups.get(0))).toList();
  }

  /** The ratios' heading. */
  String of()
  {
    return numerator + " / " + denominator;
  }

  /**
   * {@code results.json}: the setup, the orders, each ratio per repetition with its median and range and its medians
   * apart by order ({@code median<Setup>First}), and each setup's figures per repetition with their median and range.
   */
  ObjectNode json(String setup, List<Repetition<R>> repetitions)
  {
    final ObjectNode root = MAPPER.createObjectNode();
    root.put("experiment", "live-bench-" + experiment);
    root.put("setup", setup);
    root.put("repetitions", repetitions.size());
    final ArrayNode orders = root.putArray("order");
    repetitions.forEach(r -> orders.add(r.order()));
    final List<Boolean> firstOrder = firstOrder(repetitions);
    final ObjectNode ratios = root.putObject("ratios");
    ratios.put("of", of());
    for (Measure m : ratios(repetitions)) {
      final ObjectNode node = RepetitionsReport.measureJson(ratios.putObject(m.name()), m);
      node.put("median" + key(setups.get(0)) + "First", DemoReport.nullIfNaN(m.median(firstOrder)));
      node.put(
          "median" + key(reversedFirst()) + "First",
          DemoReport.nullIfNaN(m.median(firstOrder.stream().map(b -> !b).toList()))
      );
    }
    final ObjectNode figures = root.putObject("figures");
    for (Measure m : figures(repetitions)) {
      RepetitionsReport.measureJson(figures.putObject(m.name()), m);
    }
    return root;
  }

  /** The ratios' and figures' medians and ranges, for the console. */
  String text(List<Repetition<R>> repetitions)
  {
    return String.format(
        Locale.ROOT,
        "%s: %d repetitions, in the orders: %s%n%s, median [range] over the repetitions:%n",
        experiment,
        repetitions.size(),
        repetitions.stream().map(Repetition::order).collect(Collectors.joining("; ")),
        of()
    ) + RepetitionsReport.lines(ratios(repetitions)) + RepetitionsReport.lines(figures(repetitions));
  }

  /**
   * {@code report.html}: {@code heading} with the number of repetitions, {@code setup}, {@code about} (what each run
   * does), the ABBA schedule in words, the ratios per repetition with their medians by order, {@code reading} (how to
   * read them), their chart, and each setup's own figures.
   */
  String html(String heading, String setup, String about, String reading, List<Repetition<R>> repetitions)
  {
    return html(heading, setup, about, reading, repetitions, "");
  }

  /** {@link #html}, with {@code details} (HTML: what an experiment shows beyond its figures) at the end. */
  String html(
      String heading,
      String setup,
      String about,
      String reading,
      List<Repetition<R>> repetitions,
      String details
  )
  {
    System.setProperty("java.awt.headless", "true");
    final List<String> orders = repetitions.stream().map(Repetition::order).toList();
    final List<Measure> ratios = ratios(repetitions);
    return HtmlReporter.pageStart("getafix bench live: " + experiment)
           + "<h1>" + HtmlReporter.escape(heading) + ", " + repetitions.size() + " repetitions</h1>"
           + "<p>" + HtmlReporter.escape(setup) + ".</p>"
           + "<p>" + HtmlReporter.escape(about) + " Each repetition runs " + (setups.size() == 2 ? "both" : "all")
           + " setups, in the order given and reversed every other repetition (ABBA), so that each runs as often "
           + (setups.size() == 2 ? "first as second" : "early as late") + ".</p>"
           + "<h2>" + HtmlReporter.escape(numerator) + " over " + HtmlReporter.escape(denominator) + "</h2>"
           + RepetitionsReport.table(
               orders, ratios, firstOrder(repetitions), setups.get(0) + " first", reversedFirst() + " first"
           )
           + "<p>" + HtmlReporter.escape(reading) + "</p>"
           + DemoReport.chart(RepetitionsReport.ratiosChart(of(), ratios))
           + "<h2>Each setup</h2>" + RepetitionsReport.table(orders, figures(repetitions), null, "", "")
           + details
           + "</body></html>";
  }

  /** A setup's name as a part of a JSON key: {@code connectionCount} → ConnectionCount, ANSWER_QUALITY → AnswerQuality. */
  static String key(String setup)
  {
    final boolean constant = setup.equals(setup.toUpperCase(Locale.ROOT));
    return Arrays.stream(setup.split("_"))
                 .filter(part -> !part.isEmpty())
                 .map(part -> constant ? part.toLowerCase(Locale.ROOT) : part)
                 .map(part -> Character.toUpperCase(part.charAt(0)) + part.substring(1))
                 .collect(Collectors.joining());
  }

  /** A whole number as it is, any other to three decimals. */
  private static String fixed(double value)
  {
    return String.format(Locale.ROOT, value == Math.rint(value) ? "%.0f" : "%.3f", value);
  }
}
