package org.getafix.core.routing;

import org.getafix.core.placement.plan.PlacementPlan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The allocation-based routing table (thesis §3.3.1, Table 3.1): for each segment, the share of its queries each
 * holder should serve. Immutable. Each row is precomputed into node and cumulative-weight arrays, so drawing a node
 * is a binary search that allocates nothing.
 *
 * <p>Building never fails on bad numbers: the table comes from another process, and a bad entry must cost at most
 * that entry. A share that is null, NaN, infinite or negative, a blank node or segment id, is dropped and counted in
 * {@link #droppedEntries()}; zero shares are dropped silently (a zero-share replica is held but not routed to); a
 * segment left with no positive share gets no row, so routers treat it as absent. Shares need not sum to 1: each row
 * is normalised.
 */
public final class RoutingTable
{
  private static final RoutingTable EMPTY = new RoutingTable(-1, 0, Map.of(), 0);

  private final long version;
  private final long generatedAtMillis;
  private final Map<String, Row> rows;
  private final int droppedEntries;

  private RoutingTable(long version, long generatedAtMillis, Map<String, Row> rows, int droppedEntries)
  {
    this.version = version;
    this.generatedAtMillis = generatedAtMillis;
    this.rows = rows;
    this.droppedEntries = droppedEntries;
  }

  /** The table before any round: it has no rows, version -1. */
  public static RoutingTable empty()
  {
    return EMPTY;
  }

  /** The table of a placement plan, whose shares are already the ABR proportions. */
  public static RoutingTable fromPlan(long version, long generatedAtMillis, PlacementPlan plan)
  {
    return of(version, generatedAtMillis, plan.shares());
  }

  /**
   * @param shares segment id → node id → share of the segment's queries; garbage (including a share that is not a
   *               {@link Number}) is dropped as described above
   */
  public static RoutingTable of(
      long version,
      long generatedAtMillis,
      Map<String, ? extends Map<String, ?>> shares
  )
  {
    final Map<String, Row> rows = new HashMap<>();
    int dropped = 0;
    if (shares != null) {
      final List<String> nodes = new ArrayList<>();
      final List<Double> weights = new ArrayList<>();
      for (Map.Entry<String, ? extends Map<String, ?>> segment : shares.entrySet()) {
        final String segmentId = segment.getKey();
        final Map<String, ?> row = segment.getValue();
        if (segmentId == null || segmentId.isBlank() || row == null) {
          dropped++;
          continue;
        }
        nodes.clear();
        weights.clear();
        for (Map.Entry<String, ?> entry : row.entrySet()) {
          final String node = entry.getKey();
          final double share = entry.getValue() instanceof Number n ? n.doubleValue() : Double.NaN;
          if (node == null || node.isBlank() || !Double.isFinite(share) || share < 0) {
            dropped++;
          } else if (share > 0) {
            nodes.add(node);
            weights.add(share);
          }
        }
        final Row built = Row.of(nodes, weights);
        if (built != null) {
          rows.put(segmentId, built);
        }
      }
    }
    return new RoutingTable(version, generatedAtMillis, Map.copyOf(rows), dropped);
  }

  /** The Coordinator round that produced this table; -1 for {@link #empty()}. */
  public long version()
  {
    return version;
  }

  /** When the Coordinator generated this table, epoch millis; informational, routers age tables by their own clock. */
  public long generatedAtMillis()
  {
    return generatedAtMillis;
  }

  /** Number of segments with a usable row. */
  public int size()
  {
    return rows.size();
  }

  /** Entries dropped as garbage while building (see class doc); for logs. */
  public int droppedEntries()
  {
    return droppedEntries;
  }

  /** The row of {@code segmentId}, or null when the table cannot route it. */
  public Row row(String segmentId)
  {
    return segmentId == null ? null : rows.get(segmentId);
  }

  /** One segment's nodes with positive shares, and their cumulative normalised weights (the last is exactly 1). */
  public static final class Row
  {
    private final String[] nodes;
    private final double[] cumulative;

    private Row(String[] nodes, double[] cumulative)
    {
      this.nodes = nodes;
      this.cumulative = cumulative;
    }

    private static Row of(List<String> nodes, List<Double> weights)
    {
      double total = 0;
      for (double w : weights) {
        total += w;
      }
      // A sum of finite shares can still overflow to infinity; such a row has no meaningful proportions.
      if (nodes.isEmpty() || !(total > 0) || !Double.isFinite(total)) {
        return null;
      }
      final double[] cumulative = new double[nodes.size()];
      double running = 0;
      for (int i = 0; i < cumulative.length; i++) {
        running += weights.get(i);
        cumulative[i] = running / total;
      }
      cumulative[cumulative.length - 1] = 1.0;
      return new Row(nodes.toArray(new String[0]), cumulative);
    }

    public int size()
    {
      return nodes.length;
    }

    public String node(int index)
    {
      return nodes[index];
    }

    /** Normalised share of the node at {@code index}. */
    public double share(int index)
    {
      return index == 0 ? cumulative[0] : cumulative[index] - cumulative[index - 1];
    }

    /** Normalised share of {@code nodeId}, 0 when the row does not route to it. */
    public double share(String nodeId)
    {
      for (int i = 0; i < nodes.length; i++) {
        if (nodes[i].equals(nodeId)) {
          return share(i);
        }
      }
      return 0;
    }

    /**
     * Index of the node that a uniform draw {@code u} in [0, 1) selects: node i is selected with probability equal to
     * its share.
     */
    public int draw(double u)
    {
      final int found = Arrays.binarySearch(cumulative, u);
      // An exact hit on a boundary belongs to the next node, since node i covers [cumulative[i-1], cumulative[i]).
      final int index = found >= 0 ? found + 1 : -found - 1;
      return Math.min(index, nodes.length - 1);
    }
  }
}
