package org.getafix.benchmarks.planning;

import org.apache.druid.java.util.common.DateTimes;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.timeline.DataSegment;
import org.apache.druid.timeline.SegmentId;
import org.apache.druid.timeline.partition.NumberedShardSpec;
import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.SegmentLoad;
import org.joda.time.Interval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A seeded, realistic Druid tier for planning benchmarks: the same world is fed to Getafix (as a
 * {@link PlacementInput}) and to Druid's balancer (as {@link DataSegment}s on Historicals).
 * <ul>
 *   <li>Segments belong to {@value #DATASOURCES} datasources whose segment counts follow Zipf(1); every third
 *   datasource is HOUR-granular with up to {@value #HOURLY_RETENTION_HOURS} hours of data, the rest are DAY-granular
 *   with up to {@value #DAILY_RETENTION_DAYS} days. A datasource with more segments than intervals gets several
 *   partitions per interval, as a large Druid datasource does.</li>
 *   <li>Segment sizes are log-normal around {@value #MEDIAN_SEGMENT_MB} MB (σ = {@value #SIZE_SIGMA}), clamped to
 *   [10 MB, 2 GB]: Druid's recommended 300–700 MB with a tail of small hourly segments.</li>
 *   <li>Segment loads (popularity, in ms of query time per round) are Zipf(1) over a seeded random ranking: a few hot
 *   segments, a long cold tail.</li>
 *   <li>Historicals come in the three hardware classes of the thesis' second tiered cluster (4×16, 6×8 and 10×4
 *   cores per 20 nodes); capacity is the core count with ±10% noise, and memory ({@code maxSize}) is proportional
 *   to cores. All nodes together hold {@value #MEMORY_HEADROOM}× the bytes of one copy of every segment.</li>
 *   <li>The current state: every segment except {@link ClusterScale#newSegments()} seeded random ones has
 *   {@value #CURRENT_REPLICAS} replicas on distinct nodes, drawn with probability proportional to node memory and
 *   never overfilling a node (Druid's round-robin loading gives this kind of spread). The others are new this
 *   round and held nowhere.</li>
 * </ul>
 * Everything is a pure function of the scale and the seed.
 */
public final class SyntheticCluster
{
  static final int DATASOURCES = 20;
  static final int HOURLY_RETENTION_HOURS = 90 * 24;
  static final int DAILY_RETENTION_DAYS = 2 * 365;
  static final long MEDIAN_SEGMENT_MB = 300;
  static final double SIZE_SIGMA = 0.6;
  static final double MEMORY_HEADROOM = 3.0;
  static final int CURRENT_REPLICAS = 2;
  static final String TIER = "_default_tier";

  private static final long MB = 1L << 20;
  private static final long MIN_SEGMENT_BYTES = 10 * MB;
  private static final long MAX_SEGMENT_BYTES = 2048 * MB;
  private static final long DATA_END_MILLIS = DateTimes.of("2026-11-01T00:00:00Z").getMillis();
  private static final String VERSION = "2026-11-01T00:00:00.000Z";
  private static final int[] CORES_PER_20_NODES = {16, 16, 16, 16, 8, 8, 8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
  private static final double MAX_LOAD = 1_000.0;

  private final ClusterScale scale;
  private final String[] datasourceNames;
  // Per segment, indexed 0..segments-1.
  private final int[] datasource;
  private final long[] intervalStartMillis;
  private final long[] intervalLengthMillis;
  private final int[] partition;
  private final int[] partitionsInInterval;
  private final long[] sizeBytes;
  private final double[] load;
  private final String[] segmentIds;
  /** Nodes holding each segment now; an empty array for a new segment. */
  private final int[][] holders;
  private final int[] newSegments;
  private final List<NodeCapacity> nodes;

  private SyntheticCluster(ClusterScale scale, long seed)
  {
    this.scale = scale;
    final int n = scale.segments();
    final SplittableRandom random = new SplittableRandom(seed);
    this.datasourceNames = new String[DATASOURCES];
    for (int d = 0; d < DATASOURCES; d++) {
      datasourceNames[d] = String.format("datasource_%02d", d);
    }
    this.datasource = new int[n];
    this.intervalStartMillis = new long[n];
    this.intervalLengthMillis = new long[n];
    this.partition = new int[n];
    this.partitionsInInterval = new int[n];
    layOutSegments(n);

    this.sizeBytes = new long[n];
    final double logMedian = Math.log(MEDIAN_SEGMENT_MB * MB);
    long totalBytes = 0;
    for (int i = 0; i < n; i++) {
      final double bytes = Math.exp(logMedian + SIZE_SIGMA * random.nextGaussian());
      sizeBytes[i] = Math.max(MIN_SEGMENT_BYTES, Math.min(MAX_SEGMENT_BYTES, (long) bytes));
      totalBytes += sizeBytes[i];
    }

    this.load = new double[n];
    final int[] rank = permutation(n, random);
    for (int i = 0; i < n; i++) {
      load[i] = MAX_LOAD / (rank[i] + 1);
    }

    this.segmentIds = new String[n];
    for (int i = 0; i < n; i++) {
      segmentIds[i] = SegmentId.of(datasourceNames[datasource[i]], interval(i), VERSION, partition[i]).toString();
    }

    this.nodes = generateNodes(scale.nodes(), totalBytes, random);

    this.newSegments = Arrays.copyOf(permutation(n, random), scale.newSegments());
    Arrays.sort(newSegments);
    this.holders = assignCurrentReplicas(random);
  }

  public static SyntheticCluster generate(ClusterScale scale, long seed)
  {
    return new SyntheticCluster(scale, seed);
  }

  public ClusterScale scale()
  {
    return scale;
  }

  public int segmentCount()
  {
    return datasource.length;
  }

  public List<NodeCapacity> nodes()
  {
    return nodes;
  }

  public SegmentLoad segmentLoad(int segment)
  {
    return new SegmentLoad(segmentIds[segment], load[segment], sizeBytes[segment]);
  }

  public List<SegmentLoad> segmentLoads()
  {
    final List<SegmentLoad> loads = new ArrayList<>(segmentCount());
    for (int i = 0; i < segmentCount(); i++) {
      loads.add(segmentLoad(i));
    }
    return loads;
  }

  /** Indices of the nodes holding {@code segment} now; empty for a new segment. */
  public int[] currentHolders(int segment)
  {
    return holders[segment].clone();
  }

  /** Indices of the segments that have no replica yet, ascending. */
  public int[] newSegments()
  {
    return newSegments.clone();
  }

  /** The whole round as Getafix sees it: every segment, every node, and who holds what now. */
  public PlacementInput placementInput(PlacementConstraints constraints)
  {
    final Map<String, Set<String>> current = new HashMap<>();
    for (int i = 0; i < segmentCount(); i++) {
      if (holders[i].length == 0) {
        continue;
      }
      final String[] ids = new String[holders[i].length];
      for (int r = 0; r < ids.length; r++) {
        ids[r] = nodes.get(holders[i][r]).nodeId();
      }
      current.put(segmentIds[i], Set.of(ids));
    }
    return new PlacementInput(segmentLoads(), nodes, constraints, current);
  }

  /** The Druid segment behind {@code segment}; its id is the {@link SegmentLoad#segmentId()}. */
  public DataSegment dataSegment(int segment)
  {
    return DataSegment.builder()
                      .dataSource(datasourceNames[datasource[segment]])
                      .interval(interval(segment))
                      .version(VERSION)
                      .shardSpec(new NumberedShardSpec(partition[segment], partitionsInInterval[segment]))
                      .size(sizeBytes[segment])
                      .build();
  }

  private Interval interval(int segment)
  {
    return Intervals.utc(intervalStartMillis[segment], intervalStartMillis[segment] + intervalLengthMillis[segment]);
  }

  private void layOutSegments(int n)
  {
    final int[] perDatasource = zipfCounts(n, DATASOURCES);
    int i = 0;
    for (int d = 0; d < DATASOURCES; d++) {
      final boolean hourly = d % 3 == 0;
      final long length = hourly ? TimeUnit.HOURS.toMillis(1) : TimeUnit.DAYS.toMillis(1);
      final int retention = hourly ? HOURLY_RETENTION_HOURS : DAILY_RETENTION_DAYS;
      final int count = perDatasource[d];
      final int partitions = (count + retention - 1) / retention;
      for (int k = 0; k < count; k++, i++) {
        final int age = k / partitions;
        datasource[i] = d;
        intervalLengthMillis[i] = length;
        intervalStartMillis[i] = DATA_END_MILLIS - (age + 1) * length;
        partition[i] = k % partitions;
        // The oldest interval may hold fewer partitions than the others.
        final int firstOfInterval = age * partitions;
        partitionsInInterval[i] = Math.min(partitions, count - firstOfInterval);
      }
    }
  }

  /** Splits {@code total} into {@code parts} counts ∝ 1/(rank+1), by largest remainder, each at least 1. */
  static int[] zipfCounts(int total, int parts)
  {
    double harmonic = 0;
    for (int d = 0; d < parts; d++) {
      harmonic += 1.0 / (d + 1);
    }
    final int[] counts = new int[parts];
    int assigned = 0;
    for (int d = 0; d < parts; d++) {
      counts[d] = Math.max(1, (int) Math.floor(total / harmonic / (d + 1)));
      assigned += counts[d];
    }
    // Hand out the rounding remainder to the largest datasources first.
    for (int d = 0; assigned < total; d = (d + 1) % parts) {
      counts[d]++;
      assigned++;
    }
    return counts;
  }

  private static int[] permutation(int n, SplittableRandom random)
  {
    final int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      final int j = random.nextInt(i + 1);
      final int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }

  private static List<NodeCapacity> generateNodes(int count, long totalSegmentBytes, SplittableRandom random)
  {
    long totalCores = 0;
    for (int i = 0; i < count; i++) {
      totalCores += CORES_PER_20_NODES[i % CORES_PER_20_NODES.length];
    }
    final double bytesPerCore = MEMORY_HEADROOM * totalSegmentBytes / totalCores;
    final List<NodeCapacity> result = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      final int cores = CORES_PER_20_NODES[i % CORES_PER_20_NODES.length];
      final double capacity = cores * (0.9 + 0.2 * random.nextDouble());
      result.add(new NodeCapacity(String.format("historical-%04d:8083", i), capacity, (long) (bytesPerCore * cores)));
    }
    return List.copyOf(result);
  }

  private int[][] assignCurrentReplicas(SplittableRandom random)
  {
    final int nodeCount = nodes.size();
    final double[] cumulativeMemory = new double[nodeCount];
    final long[] free = new long[nodeCount];
    double sum = 0;
    for (int k = 0; k < nodeCount; k++) {
      free[k] = nodes.get(k).maxSizeBytes();
      sum += free[k];
      cumulativeMemory[k] = sum;
    }
    final int[][] result = new int[segmentCount()][];
    int nextNew = 0;
    for (int i = 0; i < segmentCount(); i++) {
      if (nextNew < newSegments.length && newSegments[nextNew] == i) {
        result[i] = new int[0];
        nextNew++;
        continue;
      }
      final int[] chosen = new int[Math.min(CURRENT_REPLICAS, nodeCount)];
      for (int r = 0; r < chosen.length; r++) {
        chosen[r] = drawNode(cumulativeMemory, free, sizeBytes[i], chosen, r, random);
        free[chosen[r]] -= sizeBytes[i];
      }
      result[i] = chosen;
    }
    return result;
  }

  /** A node with room for {@code bytes} not already in {@code chosen[0..r)}, drawn ∝ memory. */
  private static int drawNode(
      double[] cumulativeMemory,
      long[] free,
      long bytes,
      int[] chosen,
      int r,
      SplittableRandom random
  )
  {
    final double total = cumulativeMemory[cumulativeMemory.length - 1];
    for (int attempt = 0; attempt < 1_000; attempt++) {
      int k = Arrays.binarySearch(cumulativeMemory, random.nextDouble() * total);
      k = k >= 0 ? k : -k - 1;
      if (free[k] >= bytes && !contains(chosen, r, k)) {
        return k;
      }
    }
    throw new IllegalStateException("no node has " + bytes + " bytes free: memory headroom too small");
  }

  private static boolean contains(int[] values, int length, int value)
  {
    for (int i = 0; i < length; i++) {
      if (values[i] == value) {
        return true;
      }
    }
    return false;
  }
}
