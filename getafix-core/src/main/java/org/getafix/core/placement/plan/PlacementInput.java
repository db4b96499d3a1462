package org.getafix.core.placement.plan;

import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;
import it.unimi.dsi.fastutil.objects.Object2ObjectOpenHashMap;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * Everything one planning round sees.
 *
 * @param segments       per-segment load and size; segment ids are unique
 * @param nodes          per-node capacity and memory limit; node ids are unique
 * @param constraints    replica floor and cap, balancer bound
 * @param currentHolders segment id → ids of the nodes that hold it now; may be empty. Strategies may use it to
 *                       prefer plans that move less data; ids not among {@code segments}/{@code nodes} are ignored
 * @param currentShares  segment id → node id → share of the segment's load the node is routed in the plan being
 *                       carried out (the last round's {@link PlacementPlan#shares()}); may be empty. With a floor of
 *                       two or more replicas a segment has holders that carry load and holders that carry none, and
 *                       the sticky fit keeps the load on the holders that carried it, largest share first, so that a
 *                       plan given its own holders and shares comes out the same; without shares it cannot tell them
 *                       apart. Ids not among {@code segments}/{@code nodes} are ignored. Not copied when it is a
 *                       plan's own shares (immutable, and a million rows)
 */
public record PlacementInput(
    List<SegmentLoad> segments,
    List<NodeCapacity> nodes,
    PlacementConstraints constraints,
    Map<String, Set<String>> currentHolders,
    Map<String, Map<String, Double>> currentShares
)
{
  /**
   * @throws IllegalArgumentException on a null list, map or element, or a duplicate segment or node id (named)
   */
  public PlacementInput
  {
    if (segments == null || nodes == null || currentHolders == null || currentShares == null) {
      throw new IllegalArgumentException("segments, nodes, currentHolders and currentShares must not be null");
    }
    if (constraints == null) {
      throw new IllegalArgumentException("constraints must not be null");
    }
    segments = Collections.unmodifiableList(new ArrayList<>(segments));
    nodes = Collections.unmodifiableList(new ArrayList<>(nodes));
    final Object2IntOpenHashMap<String> segmentIndex = new Object2IntOpenHashMap<>(segments.size());
    segmentIndex.defaultReturnValue(-1);
    for (int i = 0; i < segments.size(); i++) {
      final SegmentLoad s = segments.get(i);
      if (s == null) {
        throw new IllegalArgumentException("segments[" + i + "] must not be null");
      }
      if (segmentIndex.putIfAbsent(s.segmentId(), i) >= 0) {
        throw new IllegalArgumentException("duplicate segment id [" + s.segmentId() + "]");
      }
    }
    final Object2IntOpenHashMap<String> nodeIndex = new Object2IntOpenHashMap<>(nodes.size());
    nodeIndex.defaultReturnValue(-1);
    for (int i = 0; i < nodes.size(); i++) {
      final NodeCapacity n = nodes.get(i);
      if (n == null) {
        throw new IllegalArgumentException("nodes[" + i + "] must not be null");
      }
      if (nodeIndex.putIfAbsent(n.nodeId(), i) >= 0) {
        throw new IllegalArgumentException("duplicate node id [" + n.nodeId() + "]");
      }
    }
    currentHolders = new CurrentHolders(currentHolders, segments, segmentIndex, nodeIndex);
    if (!(currentShares instanceof PlanShares)) {
      final Map<String, Map<String, Double>> shares = new Object2ObjectOpenHashMap<>(currentShares.size());
      for (Map.Entry<String, Map<String, Double>> e : currentShares.entrySet()) {
        if (e.getKey() != null && e.getValue() != null) {
          final Map<String, Double> row = new Object2ObjectOpenHashMap<>(e.getValue().size());
          e.getValue().forEach((node, share) -> {
            if (node != null && share != null) {
              row.put(node, share);
            }
          });
          shares.put(e.getKey(), Collections.unmodifiableMap(row));
        }
      }
      currentShares = Collections.unmodifiableMap(shares);
    }
  }

  public PlacementInput(
      List<SegmentLoad> segments,
      List<NodeCapacity> nodes,
      PlacementConstraints constraints,
      Map<String, Set<String>> currentHolders
  )
  {
    this(segments, nodes, constraints, currentHolders, Map.of());
  }

  public PlacementInput(List<SegmentLoad> segments, List<NodeCapacity> nodes, PlacementConstraints constraints)
  {
    this(segments, nodes, constraints, Map.of(), Map.of());
  }

  /**
   * The current holders, copied into arrays in segment order and already resolved to input node indices (-1 for an
   * id no node has). The planner reads a million segments' holders from here by index, front to back; looked up in
   * a map of sets by segment id, and each node id in turn, they cost a chain of cache misses per segment, a third of
   * a round. Copying in segment order also makes the copy cheaper: the segment ids are read in the order they were
   * read just before (and, as a rule, allocated), and each node id String is resolved once, then recognised by
   * reference (callers pass the same instances for every segment). As a map it is immutable and holds what the given
   * map holds, without null keys, values or node ids. Public for the packing package only, which reads the arrays by
   * index ({@link #from}, {@link #to}, {@link #node}).
   */
  public static final class CurrentHolders extends AbstractMap<String, Set<String>>
  {
    private final List<SegmentLoad> segments;
    private final Object2IntOpenHashMap<String> segmentIndex;
    /** Whether the given map names input segment i. */
    private final boolean[] named;
    private final int namedCount;
    /** Input segment i's node ids are ids[start[i], start[i+1]). */
    private final int[] start;
    private final String[] ids;
    /** The input index of the node of ids[k], or -1. */
    private final int[] nodes;
    /** Entries naming no input segment (the cluster view and the stats race, so usually none), copied. */
    private final Map<String, Set<String>> others;

    private CurrentHolders(
        Map<String, Set<String>> given,
        List<SegmentLoad> segments,
        Object2IntOpenHashMap<String> segmentIndex,
        Object2IntOpenHashMap<String> nodeIndex
    )
    {
      this.segments = segments;
      this.segmentIndex = segmentIndex;
      final int segmentCount = segments.size();
      named = new boolean[segmentCount];
      start = new int[segmentCount + 1];
      String[] holderIds = new String[given.isEmpty() ? 0 : Math.max(16, 2 * given.size())];
      int[] holderNodes = new int[holderIds.length];
      final NodeIds nodeIds = new NodeIds(nodeIndex);
      int count = 0;
      int holders = 0;
      for (int i = 0; i < segmentCount && holderIds.length > 0; i++) {
        final Set<String> set = given.get(segments.get(i).segmentId());
        if (set != null) {
          named[i] = true;
          count++;
          for (String id : set) {
            if (id != null) {
              if (holders == holderIds.length) {
                holderIds = Arrays.copyOf(holderIds, holders + (holders >> 1));
                holderNodes = Arrays.copyOf(holderNodes, holderIds.length);
              }
              holderIds[holders] = id;
              holderNodes[holders++] = nodeIds.resolve(id);
            }
          }
        }
        start[i + 1] = holders;
      }
      namedCount = count;
      ids = holderIds;
      nodes = holderNodes;
      // Only when the given map has entries beyond those just read, find them (a pass over the map in its order).
      final Map<String, Set<String>> unknown = new Object2ObjectOpenHashMap<>();
      if (given.size() > count) {
        for (Map.Entry<String, Set<String>> e : given.entrySet()) {
          if (e.getKey() != null && e.getValue() != null && !segmentIndex.containsKey(e.getKey())) {
            final List<String> copy = new ArrayList<>(e.getValue());
            copy.removeIf(Objects::isNull);
            unknown.put(e.getKey(), Set.copyOf(copy));
          }
        }
      }
      others = Collections.unmodifiableMap(unknown);
    }

    /** Input segment {@code segment}'s holders are [from(segment), to(segment)); see {@link #node}. */
    public int from(int segment)
    {
      return start[segment];
    }

    public int to(int segment)
    {
      return start[segment + 1];
    }

    /** How many holders the input segments have in all. */
    public int total()
    {
      return start[start.length - 1];
    }

    /** The input index of holder {@code k}'s node, or -1 if no node has its id. */
    public int node(int k)
    {
      return nodes[k];
    }

    private Set<String> row(int segment)
    {
      return new HolderSet(ids, start[segment], start[segment + 1]);
    }

    @Override
    public int size()
    {
      return namedCount + others.size();
    }

    @Override
    public boolean containsKey(Object key)
    {
      return get(key) != null;
    }

    @Override
    public Set<String> get(Object key)
    {
      if (!(key instanceof String)) {
        return null;
      }
      final int segment = segmentIndex.getInt(key);
      if (segment < 0) {
        return others.get(key);
      }
      return named[segment] ? row(segment) : null;
    }

    @Override
    public Set<Entry<String, Set<String>>> entrySet()
    {
      return new AbstractSet<>()
      {
        @Override
        public int size()
        {
          return CurrentHolders.this.size();
        }

        @Override
        public Iterator<Entry<String, Set<String>>> iterator()
        {
          final Iterator<Entry<String, Set<String>>> rest = others.entrySet().iterator();
          return new Iterator<>()
          {
            private int next = nextNamed(0);

            private int nextNamed(int from)
            {
              int i = from;
              while (i < named.length && !named[i]) {
                i++;
              }
              return i;
            }

            @Override
            public boolean hasNext()
            {
              return next < named.length || rest.hasNext();
            }

            @Override
            public Entry<String, Set<String>> next()
            {
              if (next >= named.length) {
                return rest.next();
              }
              final int i = next;
              next = nextNamed(i + 1);
              return new SimpleImmutableEntry<>(segments.get(i).segmentId(), row(i));
            }
          };
        }
      };
    }
  }

  /**
   * Node id → input node index, for the ids of a million holder sets: a direct-mapped cache by the String's
   * (cached) hash that recognises an id by reference, in front of the map. Callers pass the same few thousand
   * String instances over and over, and a hit then costs two array reads instead of a hash-map probe with an
   * equals call; an id that is merely equal, or unknown, is still answered by the map.
   */
  private static final class NodeIds
  {
    private final Object2IntOpenHashMap<String> index;
    private final String[] cachedIds;
    private final int[] cachedNodes;
    private final int mask;

    NodeIds(Object2IntOpenHashMap<String> index)
    {
      this.index = index;
      final int slots = Integer.highestOneBit(Math.max(16, index.size() * 4 - 1)) << 1;
      this.cachedIds = new String[slots];
      this.cachedNodes = new int[slots];
      this.mask = slots - 1;
    }

    int resolve(String id)
    {
      final int slot = id.hashCode() & mask;
      if (cachedIds[slot] == id) {
        return cachedNodes[slot];
      }
      final int node = index.getInt(id);
      cachedIds[slot] = id;
      cachedNodes[slot] = node;
      return node;
    }
  }

  /** One entry's node ids: an immutable set over a range of an array; distinct, as they come from a set. */
  private static final class HolderSet extends AbstractSet<String>
  {
    private final String[] ids;
    private final int from;
    private final int to;

    HolderSet(String[] ids, int from, int to)
    {
      this.ids = ids;
      this.from = from;
      this.to = to;
    }

    @Override
    public int size()
    {
      return to - from;
    }

    @Override
    public boolean contains(Object o)
    {
      for (int k = from; k < to; k++) {
        if (ids[k].equals(o)) {
          return true;
        }
      }
      return false;
    }

    @Override
    public Iterator<String> iterator()
    {
      return new Iterator<>()
      {
        private int next = from;

        @Override
        public boolean hasNext()
        {
          return next < to;
        }

        @Override
        public String next()
        {
          if (next >= to) {
            throw new NoSuchElementException();
          }
          return ids[next++];
        }
      };
    }
  }
}
