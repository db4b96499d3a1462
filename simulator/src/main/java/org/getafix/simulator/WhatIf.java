package org.getafix.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.simulator.report.HtmlReporter;
import org.getafix.simulator.report.ResultsJsonReporter;
import org.getafix.simulator.report.RunOutcome;
import org.getafix.simulator.report.RunResult;
import org.getafix.simulator.report.SimulationResults;
import org.getafix.simulator.settings.ScenarioException;
import org.getafix.simulator.settings.ScenarioParser;
import org.getafix.simulator.settings.ScenarioSettings;
import org.getafix.simulator.whatif.ClusterInventory;
import org.getafix.simulator.whatif.RequestLogs;
import org.getafix.simulator.whatif.WorkloadFit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./getafix whatif}: what Getafix-H would do on an operator's own cluster, before anything is installed on
 * it. Reads the cluster's Historicals and segments from its Coordinator ({@link ClusterInventory}) and its queries
 * from Druid's request logs ({@link RequestLogs}), fits the simulator's model to them ({@link WorkloadFit}), and
 * simulates stock placement (every segment at the cluster's current mean replica count) against Getafix-H on the
 * fitted scenario. Writes {@code scenario.json} (the fitted scenario, to adjust and rerun with
 * {@code ./getafix simulate}), {@code whatif.json} (the fit and the comparison), {@code results.json} and
 * {@code report.html}.
 */
public final class WhatIf
{
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final String USAGE =
      "usage: ./getafix whatif --coordinator URL --request-logs PATH[,PATH...] [--datasource NAME] [--cores N]\n"
      + "                      [--utilisation U] [--routing NAME] [--duration S] [--auth USER:PASSWORD] [--out DIR]";
  static final String STOCK = "stock";
  static final String GETAFIX = "getafix-h";

  private WhatIf()
  {
  }

  public static void main(String[] args)
  {
    System.exit(run(args));
  }

  /** The settings of one what-if, from the command line. */
  record Options(URI coordinator, List<Path> requestLogs, String dataSource, int cores, Double utilisation,
                 String routing, double durationSeconds, String auth, Path out)
  {
  }

  public static int run(String[] args)
  {
    final Options options;
    try {
      options = options(args);
    }
    catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.err.println(USAGE);
      return 2;
    }
    try {
      final ClusterInventory inventory = ClusterInventory.of(fetchServers(options), options.dataSource());
      final RequestLogs.Parsed logs = RequestLogs.read(options.requestLogs());
      final WorkloadFit fit = WorkloadFit.of(inventory, logs.queries());
      final ObjectNode scenarioJson = scenario(options, inventory, fit);
      final ScenarioSettings scenario = ScenarioParser.parse(MAPPER.writeValueAsString(scenarioJson));
      System.err.printf(
          Locale.ROOT,
          "[whatif] %d Historicals, %d segments (%.2f replicas each), %d queries fitted (%d ignored, %d log lines"
          + " skipped): %.2f queries/s, recency exponent %.2f, %.1f segments per query; newest tenth of the"
          + " segments draws %.0f%% of the accesses (model: %.0f%%)%n",
          inventory.historicals().size(), inventory.segments().size(), inventory.meanReplicas(), fit.queries(),
          fit.ignoredQueries(), logs.skippedLines(), fit.queriesPerSecond(), fit.recencyExponent(),
          fit.meanIntervalSegments(), 100 * fit.newestTenthShare(), 100 * fit.modelNewestTenthShare()
      );
      final SimulationResults results = Simulate.simulate(scenario);
      Files.createDirectories(options.out());
      Files.writeString(options.out().resolve("scenario.json"), MAPPER.writeValueAsString(scenarioJson));
      new ResultsJsonReporter().write(options.out(), results);
      new HtmlReporter().write(options.out(), results);
      final Map<String, Object> summary = summary(inventory, fit, logs.skippedLines(), results);
      Files.writeString(options.out().resolve("whatif.json"), MAPPER.writeValueAsString(summary));
      System.out.println(MAPPER.writeValueAsString(summary.get("comparison")));
      System.err.println("[whatif] wrote scenario.json, whatif.json, results.json and report.html to " + options.out());
      return 0;
    }
    catch (IllegalArgumentException | ScenarioException | IOException e) {
      // A refused connection has no message; its class says what happened.
      System.err.println("error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      return 1;
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      System.err.println("error: interrupted");
      return 1;
    }
  }

  static Options options(String[] args)
  {
    URI coordinator = null;
    final List<Path> logs = new ArrayList<>();
    String dataSource = null;
    int cores = 4;
    Double utilisation = null;
    String routing = "getafixLbr";
    double duration = 300;
    String auth = null;
    Path out = Path.of("out", "whatif");
    for (int i = 0; i < args.length; i++) {
      final String arg = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(arg.startsWith("--") ? arg + " needs a value" : "unexpected " + arg);
      }
      final String value = args[++i];
      switch (arg) {
        case "--coordinator" -> coordinator = URI.create(value.endsWith("/") ? value : value + "/");
        case "--request-logs" -> {
          for (String path : value.split(",")) {
            logs.add(Path.of(path));
          }
        }
        case "--datasource" -> dataSource = value;
        case "--cores" -> cores = (int) positive(arg, value, 4096);
        case "--utilisation" -> utilisation = positive(arg, value, 0.99);
        case "--routing" -> routing = value;
        case "--duration" -> duration = positive(arg, value, 86_400);
        case "--auth" -> auth = value;
        case "--out" -> out = Path.of(value);
        default -> throw new IllegalArgumentException("unknown option " + arg);
      }
    }
    if (coordinator == null) {
      throw new IllegalArgumentException("--coordinator is required");
    }
    if (logs.isEmpty()) {
      throw new IllegalArgumentException("--request-logs is required");
    }
    if (cores < 1) {
      throw new IllegalArgumentException("--cores must be >= 1, got [" + cores + "]");
    }
    return new Options(coordinator, List.copyOf(logs), dataSource, cores, utilisation, routing, duration, auth, out);
  }

  private static double positive(String option, String value, double max)
  {
    final double number;
    try {
      number = Double.parseDouble(value);
    }
    catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " must be a number, got [" + value + "]");
    }
    if (!(number > 0 && number <= max)) {
      throw new IllegalArgumentException(option + " must be in (0, " + max + "], got [" + value + "]");
    }
    return number;
  }

  private static JsonNode fetchServers(Options options) throws IOException, InterruptedException
  {
    final URI uri = options.coordinator().resolve("druid/coordinator/v1/servers?full");
    final HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(2)).GET();
    if (options.auth() != null) {
      request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          options.auth().getBytes(StandardCharsets.UTF_8)
      ));
    }
    final HttpResponse<String> response = HttpClient.newBuilder()
                                                    .followRedirects(HttpClient.Redirect.NORMAL)
                                                    .connectTimeout(Duration.ofSeconds(30))
                                                    .build()
                                                    .send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("GET " + uri + " answered " + response.statusCode() + ": " + response.body());
    }
    return MAPPER.readTree(response.body());
  }

  /**
   * The fitted scenario: the cluster's Historicals (each with {@code cores} cores and its {@code maxSize} as memory),
   * its segments (count, mean size and spread; no new segments arrive), the fitted workload, and two runs with the
   * same routing: stock Druid at the cluster's mean replica count, and Getafix-H. Per-segment costs are the logged
   * ones, scaled so the offered load is {@code utilisation} of the cores when that is given; types without logged
   * costs keep the simulator's defaults.
   */
  static ObjectNode scenario(Options options, ClusterInventory inventory, WorkloadFit fit)
  {
    final ObjectNode root = MAPPER.createObjectNode();
    root.put("name", "whatif");
    root.put("description", String.format(
        Locale.ROOT,
        "Fitted to %s: %d Historicals, %d segments, %d logged queries",
        options.coordinator(), inventory.historicals().size(), inventory.segments().size(), fit.queries()
    ));
    root.put("seed", 1);
    root.put("durationSeconds", options.durationSeconds());
    final ArrayNode nodes = root.putArray("nodes");
    for (ClusterInventory.Historical historical : inventory.historicals()) {
      final ObjectNode node = nodes.addObject();
      node.put("name", historical.name().replaceAll("[^A-Za-z0-9_.-]", "_"));
      node.put("count", 1);
      node.put("cores", options.cores());
      if (historical.maxSizeBytes() > 0) {
        node.put("memoryBytes", historical.maxSizeBytes());
      }
    }
    final int clients = 5;
    final ObjectNode clientsNode = root.putObject("clients");
    clientsNode.put("count", clients);
    clientsNode.put("minQueriesPerSecond", fit.queriesPerSecond() / clients);
    clientsNode.put("maxQueriesPerSecond", fit.queriesPerSecond() / clients);

    final ObjectNode segments = root.putObject("segments");
    segments.put("initial", inventory.segments().size());
    segments.put("arrivalEverySeconds", 0);
    final double mean = inventory.meanSizeBytes();
    segments.put("sizeBytes", Math.max(1, Math.round(mean)));
    double maxDeviation = 0;
    for (ClusterInventory.ServedSegment segment : inventory.segments()) {
      maxDeviation = Math.max(maxDeviation, Math.abs(segment.sizeBytes() - mean) / Math.max(1, mean));
    }
    segments.put("sizeJitter", Math.min(0.99, maxDeviation));

    final Map<String, Double> costs = taskMillis(options, inventory, fit);
    final ObjectNode workload = root.putObject("workload");
    workload.put("recencyExponent", fit.recencyExponent());
    workload.put("meanIntervalSegments", Math.max(1, fit.meanIntervalSegments()));
    final ArrayNode types = workload.putArray("queryTypes");
    fit.types().forEach((type, typeFit) -> {
      final ObjectNode t = types.addObject();
      t.put("name", type);
      t.put("weight", typeFit.share());
      t.put("meanTaskMillis", costs.get(type));
      t.put("cv", defaultCost(type).cv());
    });

    final ObjectNode planning = root.putObject("planning");
    planning.put("druidDefaultReplicas", Math.max(1, (int) Math.round(inventory.meanReplicas())));
    planning.put("routing", options.routing());
    final ArrayNode runs = root.putArray("runs");
    runs.addObject().put("label", STOCK).put("strategy", "druid-default");
    runs.addObject().put("label", GETAFIX).put("strategy", "getafix-h");
    return root;
  }

  /** The simulator's default cost and spread of a type, for types the logs give no cost for. */
  private static ScenarioSettings.QueryTypeSettings defaultCost(String type)
  {
    return ScenarioSettings.Workload.DEFAULT_QUERY_TYPES.stream()
                                                        .filter(t -> t.name().equals(type))
                                                        .findFirst()
                                                        .orElseThrow();
  }

  private static Map<String, Double> taskMillis(Options options, ClusterInventory inventory, WorkloadFit fit)
  {
    final Map<String, Double> costs = new LinkedHashMap<>();
    double perQuery = 0;
    for (Map.Entry<String, WorkloadFit.TypeFit> type : fit.types().entrySet()) {
      final Double logged = type.getValue().meanSegmentMillis();
      final double cost = logged != null && logged > 0 ? logged : defaultCost(type.getKey()).meanTaskMillis();
      costs.put(type.getKey(), cost);
      perQuery += type.getValue().share() * cost * Math.max(1, fit.meanIntervalSegments());
    }
    if (options.utilisation() != null && perQuery > 0) {
      final double capacityMillisPerSecond = 1000.0 * options.cores() * inventory.historicals().size();
      final double scale = options.utilisation() * capacityMillisPerSecond / (fit.queriesPerSecond() * perQuery);
      costs.replaceAll((type, cost) -> cost * scale);
    }
    return costs;
  }

  private static Map<String, Object> summary(
      ClusterInventory inventory,
      WorkloadFit fit,
      int skippedLines,
      SimulationResults results
  )
  {
    final Map<String, RunResult> byLabel = new LinkedHashMap<>();
    for (RunOutcome outcome : results.runs()) {
      byLabel.put(outcome.label(), outcome.result());
    }
    final RunResult stock = byLabel.get(STOCK);
    final RunResult getafix = byLabel.get(GETAFIX);
    final Map<String, Object> comparison = new LinkedHashMap<>();
    comparison.put("memory", (double) getafix.totalMemoryBytes() / stock.totalMemoryBytes());
    comparison.put("replicas", (double) getafix.totalReplicas() / stock.totalReplicas());
    comparison.put("p50", getafix.latencyMs().p50() / stock.latencyMs().p50());
    comparison.put("p99", getafix.latencyMs().p99() / stock.latencyMs().p99());
    comparison.put("stockMovedDataPerHour", stock.movedDataPerHour());
    comparison.put("getafixMovedDataPerHour", getafix.movedDataPerHour());
    final Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("historicals", inventory.historicals().size());
    summary.put("segments", inventory.segments().size());
    summary.put("meanReplicas", inventory.meanReplicas());
    summary.put("skippedLogLines", skippedLines);
    summary.put("fit", fit);
    summary.put("comparison", comparison);
    return summary;
  }
}
