package org.getafix.simulator.settings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.core.contract.PlacementKnobs;
import org.getafix.core.placement.capacity.CapacityEstimators;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.getafix.core.quality.split.QualityProfile;
import org.getafix.core.realise.LoadBeforeDrop;
import org.getafix.core.redundancy.HedgeSettings;
import org.getafix.core.redundancy.ReplicatorSettings;
import org.getafix.core.routing.RoutingPolicies;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a scenario: a built-in name (a JSON file under {@code scenarios/} on the classpath, see
 * {@link BuiltInScenarios}) or a path. Every field except {@code name}, {@code nodes} and {@code clients} has a
 * default; unknown fields are errors.
 */
public final class ScenarioParser
{
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ScenarioParser()
  {
  }

  /** A built-in scenario name, or a path to a JSON file. */
  public static ScenarioSettings load(String nameOrPath)
  {
    final Path path = Path.of(nameOrPath);
    if (nameOrPath.endsWith(".json") || Files.exists(path)) {
      if (!Files.isRegularFile(path)) {
        throw new ScenarioException("scenario file [" + nameOrPath + "] does not exist");
      }
      try {
        return parse(Files.readString(path));
      }
      catch (IOException e) {
        throw new ScenarioException("cannot read scenario file [" + nameOrPath + "]: " + e.getMessage(), e);
      }
    }
    try (InputStream in = ScenarioParser.class.getResourceAsStream(BuiltInScenarios.resourcePath(nameOrPath))) {
      if (in == null) {
        throw new ScenarioException(
            "unknown scenario [" + nameOrPath + "]: not a file, and not one of the built-in scenarios "
            + BuiltInScenarios.names()
        );
      }
      return parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
    }
    catch (IOException e) {
      throw new ScenarioException("cannot read built-in scenario [" + nameOrPath + "]", e);
    }
  }

  public static ScenarioSettings parse(String json)
  {
    final JsonNode root;
    try {
      root = MAPPER.readTree(json);
    }
    catch (JsonProcessingException e) {
      throw new ScenarioException("scenario is not valid JSON: " + e.getOriginalMessage()
                                  + " at line " + e.getLocation().getLineNr(), e);
    }
    final JsonFields f = new JsonFields(root, "");
    f.rejectUnknown(Set.of(
        "name", "description", "seed", "durationSeconds", "warmupSeconds", "roundSeconds", "nodes",
        "stragglers", "clients", "segments", "workload", "planning", "runs", "execution", "interference", "diurnal",
        "redundancy"
    ));
    final String name = f.string("name", null);
    final double duration = f.number("durationSeconds", 300.0, 1, 1e6);
    final double warmup = f.number("warmupSeconds", Math.min(60.0, duration / 5), 0, duration - 1e-9);
    // The Coordinator's default round; a simulated round may be shorter than the Coordinator's shortest, as it costs
    // no cluster anything.
    final double defaultRound = PlacementKnobs.ROUND_PERIOD.defaultValue().toMillis() / 1000.0;
    final double round = f.number("roundSeconds", defaultRound, 0.01, duration);

    final List<ScenarioSettings.NodeGroup> nodes = nodes(f);
    final Set<String> nodeIds = new HashSet<>();
    for (ScenarioSettings.NodeGroup g : nodes) {
      for (int i = 0; i < g.count(); i++) {
        nodeIds.add(g.name() + "-" + i);
      }
    }
    final List<ScenarioSettings.Straggler> stragglers = stragglers(f, nodeIds);

    final JsonFields c = required(f, "clients");
    c.rejectUnknown(Set.of("count", "minQueriesPerSecond", "maxQueriesPerSecond"));
    final double minQps = c.number("minQueriesPerSecond", 50.0, 0.001, 1e6);
    final double maxQps = c.number("maxQueriesPerSecond", 150.0, minQps, 1e6);
    final ScenarioSettings.Clients clients =
        new ScenarioSettings.Clients((int) c.integer("count", null, 1, 10_000), minQps, maxQps);

    final ScenarioSettings.Segments segments = segments(objectOrEmpty(f, "segments"));
    final ScenarioSettings.Workload workload = workload(objectOrEmpty(f, "workload"));
    final ScenarioSettings.Planning planning = planning(objectOrEmpty(f, "planning"), nodeIds.size());
    final List<ScenarioSettings.Run> runs = runs(f);
    final ScenarioSettings.Execution execution = execution(f.object("execution"));
    if (execution == null && runs.stream().anyMatch(r -> r.execution() != null)) {
      throw new ScenarioException("a run sets 'execution', so the scenario needs an 'execution' object");
    }
    final ScenarioSettings.Redundancy redundancy = redundancy(f.object("redundancy"));
    final String noRedundancy = ScenarioSettings.REDUNDANCIES.get(0);
    if (redundancy == null && runs.stream().anyMatch(r -> !noRedundancy.equals(r.redundancy()))) {
      throw new ScenarioException("a run sets 'redundancy', so the scenario needs a 'redundancy' object");
    }

    return new ScenarioSettings(
        name,
        f.has("description") ? f.string("description", null) : "",
        f.integer("seed", 1L, Long.MIN_VALUE, Long.MAX_VALUE),
        duration,
        warmup,
        round,
        nodes,
        stragglers,
        clients,
        segments,
        workload,
        planning,
        runs,
        execution,
        interference(f, nodeIds),
        diurnal(f.object("diurnal")),
        redundancy
    );
  }

  private static JsonFields required(JsonFields f, String field)
  {
    final JsonFields o = f.object(field);
    if (o == null) {
      throw new ScenarioException("missing field '" + f.path(field) + "'");
    }
    return o;
  }

  /** The object {@code field}, or an empty one if absent, so that its fields take their defaults. */
  private static JsonFields objectOrEmpty(JsonFields f, String field)
  {
    final JsonFields o = f.object(field);
    return o != null ? o : new JsonFields(MAPPER.createObjectNode(), f.path(field));
  }

  private static List<ScenarioSettings.NodeGroup> nodes(JsonFields f)
  {
    final JsonNode array = f.array("nodes", true);
    if (array.isEmpty()) {
      throw new ScenarioException("field 'nodes' must list at least one node group");
    }
    final List<ScenarioSettings.NodeGroup> groups = new ArrayList<>();
    final Set<String> names = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      final JsonFields g = new JsonFields(array.get(i), "nodes[" + i + "]");
      g.rejectUnknown(Set.of(
          "name", "count", "cores", "speed", "memoryBytes", "tier", "processingThreads"
      ));
      final String name = g.string("name", "hn" + (array.size() > 1 ? i : ""));
      if (!names.add(name)) {
        throw new ScenarioException("field '" + g.path("name") + "': duplicate node group name [" + name + "]");
      }
      final int cores = (int) g.integer("cores", null, 1, 4096);
      String tier = g.optionalString("tier");
      if (tier != null) {
        tier = tier.toUpperCase(Locale.ROOT);
        if (!ScenarioSettings.TIERS.contains(tier)) {
          throw new ScenarioException(
              "field '" + g.path("tier") + "' must be one of " + ScenarioSettings.TIERS + ", got [" + tier + "]"
          );
        }
      }
      groups.add(new ScenarioSettings.NodeGroup(
          name,
          (int) g.integer("count", 1L, 1, 10_000),
          cores,
          g.number("speed", 1.0, 1e-6, 1e6),
          g.integer("memoryBytes", cores * 4L * 1024 * 1024 * 1024, 0, Long.MAX_VALUE),
          tier,
          (int) g.integer("processingThreads", (long) cores, 1, 4096)
      ));
    }
    return List.copyOf(groups);
  }

  private static List<ScenarioSettings.Straggler> stragglers(JsonFields f, Set<String> nodeIds)
  {
    final JsonNode array = f.array("stragglers", false);
    if (array == null) {
      return List.of();
    }
    final List<ScenarioSettings.Straggler> stragglers = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      final JsonFields s = new JsonFields(array.get(i), "stragglers[" + i + "]");
      s.rejectUnknown(Set.of("node", "fromSeconds", "speed"));
      final String node = s.string("node", null);
      if (!nodeIds.contains(node)) {
        throw new ScenarioException(
            "field '" + s.path("node") + "' names unknown node [" + node + "]; nodes are named <group name>-<i>"
        );
      }
      stragglers.add(new ScenarioSettings.Straggler(
          node,
          s.number("fromSeconds", 0.0, 0, 1e9),
          s.number("speed", null, 1e-6, 1e6)
      ));
    }
    return List.copyOf(stragglers);
  }

  private static List<ScenarioSettings.Interference> interference(JsonFields f, Set<String> nodeIds)
  {
    final JsonNode array = f.array("interference", false);
    if (array == null) {
      return List.of();
    }
    final List<ScenarioSettings.Interference> groups = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      final JsonFields g = new JsonFields(array.get(i), "interference[" + i + "]");
      g.rejectUnknown(Set.of("nodes", "everySeconds", "stallSeconds", "speedFactor"));
      final JsonNode names = g.array("nodes", true);
      final List<String> nodes = new ArrayList<>();
      for (int j = 0; j < names.size(); j++) {
        final String node = names.get(j).asText();
        if (!nodeIds.contains(node)) {
          throw new ScenarioException(
              "field '" + g.path("nodes") + "[" + j + "]' names unknown node [" + node
              + "]; nodes are named <group name>-<i>"
          );
        }
        nodes.add(node);
      }
      final double every = g.number("everySeconds", 10.0, 0.001, 1e9);
      groups.add(new ScenarioSettings.Interference(
          List.copyOf(nodes),
          every,
          g.number("stallSeconds", 1.5, 0, every),
          g.number("speedFactor", 0.2, 1e-6, 1)
      ));
    }
    return List.copyOf(groups);
  }

  private static ScenarioSettings.Diurnal diurnal(JsonFields d)
  {
    if (d == null) {
      return null;
    }
    d.rejectUnknown(Set.of("periodSeconds", "minFactor"));
    return new ScenarioSettings.Diurnal(d.number("periodSeconds", null, 1, 1e9), d.number("minFactor", 0.5, 0, 1));
  }

  private static ScenarioSettings.Redundancy redundancy(JsonFields r)
  {
    if (r == null) {
      return null;
    }
    r.rejectUnknown(Set.of(
        "sloMillis", "periodSeconds", "hedgeRatio", "maxFactor", "serviceLevelTarget", "duplicates"
    ));
    return new ScenarioSettings.Redundancy(
        r.number("sloMillis", null, 0.001, 1e9),
        r.number("periodSeconds", 5.0, 0.01, 1e9),
        r.number("hedgeRatio", HedgeSettings.DEFAULTS.hedgeRatio(), 1e-6, 1),
        r.number("maxFactor", ReplicatorSettings.DEFAULTS.maxFactor(), 1, 10),
        r.has("serviceLevelTarget") ? r.number("serviceLevelTarget", null, 1e-6, 1) : Double.NaN,
        (int) r.integer("duplicates", 2L, 1, 10)
    );
  }

  private static ScenarioSettings.Segments segments(JsonFields s)
  {
    s.rejectUnknown(Set.of("initial", "arrivalEverySeconds", "sizeBytes", "sizeJitter", "loadBytesPerSecond", "loadCpuCores"));
    return new ScenarioSettings.Segments(
        (int) s.integer("initial", 500L, 1, 1_000_000),
        s.number("arrivalEverySeconds", 30.0, 0, 1e9),
        s.integer("sizeBytes", 500_000_000L, 1, Long.MAX_VALUE / 4),
        s.number("sizeJitter", 0.2, 0, 0.99),
        s.number("loadBytesPerSecond", 1e8, 1, 1e15),
        s.number("loadCpuCores", 0.0, 0, 64)
    );
  }

  private static ScenarioSettings.Workload workload(JsonFields w)
  {
    w.rejectUnknown(Set.of("recencyExponent", "meanIntervalSegments", "queryTypes", "queryOverheadMillis"));
    List<ScenarioSettings.QueryTypeSettings> types = ScenarioSettings.Workload.DEFAULT_QUERY_TYPES;
    final JsonNode array = w.array("queryTypes", false);
    if (array != null) {
      if (array.isEmpty()) {
        throw new ScenarioException("field 'workload.queryTypes' must list at least one query type");
      }
      types = new ArrayList<>();
      for (int i = 0; i < array.size(); i++) {
        final JsonFields t = new JsonFields(array.get(i), "workload.queryTypes[" + i + "]");
        t.rejectUnknown(Set.of("name", "weight", "meanTaskMillis", "cv"));
        types.add(new ScenarioSettings.QueryTypeSettings(
            t.string("name", null),
            t.number("weight", null, 0, 1e9),
            t.number("meanTaskMillis", null, 1e-6, 1e9),
            t.number("cv", 0.0, 0, 100)
        ));
      }
      if (types.stream().mapToDouble(ScenarioSettings.QueryTypeSettings::weight).sum() <= 0) {
        throw new ScenarioException("field 'workload.queryTypes': the weights must not all be 0");
      }
      types = List.copyOf(types);
    }
    return new ScenarioSettings.Workload(
        w.number("recencyExponent", 1.4, 0, 100),
        w.number("meanIntervalSegments", 4.0, 1, 1e6),
        types,
        w.number("queryOverheadMillis", 0.0, 0, 1e9)
    );
  }

  private static ScenarioSettings.Planning planning(JsonFields p, int nodeCount)
  {
    p.rejectUnknown(Set.of(
        "popularityDecay", "popularityBiasCorrection", "minReplicas", "maxReplicas", "gamma", "capacityEstimator", "druidDefaultReplicas",
        "routing", "maxLoadsPerRound", "maxDropsPerRound", "loadBeforeDrop", "popularityInheritance", "hotLoadShare",
        "hotMinNodeLoadShare", "backUpUnstable", "minPlanGain", "maxRebalanceDataPerHour"
    ));
    // The extension's knobs, with its defaults and ranges; replicas are also bounded by the scenario's nodes, and
    // by default not capped below them.
    final int min = p.integer("minReplicas", PlacementKnobs.MIN_REPLICAS, nodeCount);
    return new ScenarioSettings.Planning(
        p.number("popularityDecay", PlacementKnobs.POPULARITY_DECAY),
        p.bool("popularityBiasCorrection", PlacementKnobs.POPULARITY_BIAS_CORRECTION.defaultValue()),
        min,
        (int) p.integer("maxReplicas", (long) nodeCount, min, nodeCount),
        p.number("gamma", PlacementKnobs.GAMMA),
        oneOf(
            p,
            "capacityEstimator",
            PlacementKnobs.CAPACITY_ESTIMATOR.defaultValue(),
            CapacityEstimators.REGISTRY.names()
        ),
        (int) p.integer(
            "druidDefaultReplicas",
            (long) PlacementStrategies.DEFAULT_DRUID_REPLICATION_FACTOR,
            1,
            nodeCount
        ),
        oneOf(p, "routing", RoutingPolicies.LBR, ScenarioSettings.ROUTINGS),
        p.integer("maxLoadsPerRound", PlacementKnobs.MAX_LOADS_PER_ROUND, Integer.MAX_VALUE),
        (int) p.integer("maxDropsPerRound", (long) Integer.MAX_VALUE, 0, Integer.MAX_VALUE),
        loadBeforeDrop(oneOf(p, "loadBeforeDrop", ScenarioSettings.LOAD_BEFORE_DROP.get(0),
                             ScenarioSettings.LOAD_BEFORE_DROP)),
        p.bool("popularityInheritance", PlacementKnobs.POPULARITY_INHERITANCE.defaultValue()),
        p.number("hotLoadShare", PlacementKnobs.HOT_LOAD_SHARE),
        p.number("hotMinNodeLoadShare", PlacementKnobs.HOT_MIN_NODE_LOAD_SHARE),
        p.bool("backUpUnstable", PlacementKnobs.BACK_UP_UNSTABLE.defaultValue()),
        p.number("minPlanGain", PlacementKnobs.MIN_PLAN_GAIN),
        p.number("maxRebalanceDataPerHour", PlacementKnobs.MAX_REBALANCE_DATA_PER_HOUR)
    );
  }

  private static List<ScenarioSettings.Run> runs(JsonFields f)
  {
    final JsonNode array = f.array("runs", false);
    if (array == null) {
      return PlacementStrategies.REGISTRY.names().stream()
                                         .map(s -> new ScenarioSettings.Run(s, s, null, null, null))
                                         .toList();
    }
    if (array.isEmpty()) {
      throw new ScenarioException("field 'runs' must list at least one run");
    }
    final List<ScenarioSettings.Run> runs = new ArrayList<>();
    final Set<String> labels = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      final JsonFields r = new JsonFields(array.get(i), "runs[" + i + "]");
      r.rejectUnknown(Set.of(
          "label", "strategy", "routing", "gamma", "capacityEstimator", "execution", "loadFactors", "loadStep",
          "budgetAs", "redundancy", "backUpUnstable", "minPlanGain"
      ));
      final String strategy = oneOf(r, "strategy", null, PlacementStrategies.REGISTRY.names());
      final String label = r.string("label", strategy);
      final String execution = r.has("execution") ? oneOf(r, "execution", null, ScenarioSettings.EXECUTIONS) : null;
      final List<Double> factors = loadFactors(r);
      ScenarioSettings.LoadStep step = null;
      final JsonFields s = r.object("loadStep");
      if (s != null) {
        s.rejectUnknown(Set.of("atSeconds", "factor"));
        step = new ScenarioSettings.LoadStep(s.number("atSeconds", null, 0, 1e9), s.number("factor", null, 0.01, 100));
      }
      for (double factor : factors) {
        // A sweep labels each load "<label>@<factor>x"; a single load factor keeps the label as written.
        final String runLabel = r.has("loadFactors") ? String.format(Locale.ROOT, "%s@%sx", label, factor) : label;
        if (!labels.add(runLabel)) {
          throw new ScenarioException("field '" + r.path("label") + "': duplicate run label [" + runLabel + "]");
        }
        runs.add(new ScenarioSettings.Run(
            runLabel,
            strategy,
            r.has("routing") ? oneOf(r, "routing", null, ScenarioSettings.ROUTINGS) : null,
            r.has("gamma") ? r.number("gamma", PlacementKnobs.GAMMA) : null,
            r.has("capacityEstimator") ? oneOf(r, "capacityEstimator", null, CapacityEstimators.REGISTRY.names()) : null,
            execution,
            label,
            factor,
            step,
            oneOf(r, "budgetAs", ScenarioSettings.BUDGET_AS.get(0), ScenarioSettings.BUDGET_AS),
            oneOf(r, "redundancy", ScenarioSettings.REDUNDANCIES.get(0), ScenarioSettings.REDUNDANCIES),
            r.has("backUpUnstable") ? r.bool("backUpUnstable", false) : null,
            r.has("minPlanGain") ? r.number("minPlanGain", PlacementKnobs.MIN_PLAN_GAIN) : null
        ));
      }
    }
    return List.copyOf(runs);
  }

  private static List<Double> loadFactors(JsonFields r)
  {
    final JsonNode array = r.array("loadFactors", false);
    if (array == null) {
      return List.of(1.0);
    }
    if (array.isEmpty()) {
      throw new ScenarioException("field '" + r.path("loadFactors") + "' must list at least one load factor");
    }
    final List<Double> factors = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      final JsonNode v = array.get(i);
      if (!v.isNumber() || !(v.asDouble() >= 0.01 && v.asDouble() <= 100)) {
        throw new ScenarioException("field '" + r.path("loadFactors") + "[" + i + "]' must be a number in [0.01, 100], got " + v);
      }
      factors.add(v.asDouble());
    }
    return factors;
  }

  private static ScenarioSettings.Execution execution(JsonFields e)
  {
    if (e == null) {
      return null;
    }
    e.rejectUnknown(Set.of(
        "rtTargetMillis", "qualityTarget", "budgetIntegralGain", "queueIntegralGain", "minBudgetMillis", "maxBudgetMillis",
        "maxQueueLimit", "staticQueueLimit", "qualityProfiles"
    ));
    final double target = e.number("rtTargetMillis", null, 0.001, 1e7);
    final double minBudget = e.number("minBudgetMillis", target, 0.001, 1e10);
    final Map<String, QualityProfile> profiles = new LinkedHashMap<>();
    final JsonFields p = e.object("qualityProfiles");
    if (p != null) {
      final Iterator<String> types = e.get("qualityProfiles").fieldNames();
      while (types.hasNext()) {
        final String type = types.next();
        final JsonFields knots = p.object(type);
        if (knots == null) {
          throw new ScenarioException("field '" + p.path(type) + "' must be an object");
        }
        knots.rejectUnknown(Set.of("fractions", "qualities"));
        try {
          profiles.put(type, QualityProfile.of(numbers(knots, "fractions"), numbers(knots, "qualities")));
        }
        catch (IllegalArgumentException ex) {
          throw new ScenarioException("field '" + p.path(type) + "': " + ex.getMessage(), ex);
        }
      }
    }
    return new ScenarioSettings.Execution(
        target,
        e.number("qualityTarget", 0.9, 0, 1),
        e.number("budgetIntegralGain", 0.02, 0, 1e6),
        e.number("queueIntegralGain", 0.0002, 0, 1e6),
        minBudget,
        e.number("maxBudgetMillis", 1000 * target, minBudget, 1e10),
        (int) e.integer("maxQueueLimit", 1_000L, 1, 10_000_000),
        (int) e.integer("staticQueueLimit", 50L, 1, 10_000_000),
        Map.copyOf(profiles)
    );
  }

  private static double[] numbers(JsonFields f, String field)
  {
    final JsonNode array = f.array(field, true);
    final double[] values = new double[array.size()];
    for (int i = 0; i < values.length; i++) {
      if (!array.get(i).isNumber()) {
        throw new ScenarioException("field '" + f.path(field) + "[" + i + "]' must be a number, got " + array.get(i));
      }
      values[i] = array.get(i).asDouble();
    }
    return values;
  }

  private static LoadBeforeDrop loadBeforeDrop(String name)
  {
    return "allPlannedLoaded".equals(name) ? LoadBeforeDrop.ALL_PLANNED_LOADED : LoadBeforeDrop.PLANNED_COUNT_SERVING;
  }

  private static String oneOf(JsonFields f, String field, String fallback, List<String> allowed)
  {
    final String value = f.string(field, fallback);
    if (!allowed.contains(value)) {
      throw new ScenarioException(
          "field '" + f.path(field) + "' must be one of " + allowed + ", got [" + value + "]"
      );
    }
    return value;
  }
}
