package org.getafix.core.realise;

/**
 * Walking every segment's replicas back to the counts of a stock load rule (the rule Getafix replaced), loading
 * before dropping: while any segment has fewer loaded replicas than the stock count, no segment is asked for fewer
 * than it has, so the replicas a plan removed come back before those it added go. A pass over the segments (one
 * Coordinator run) counts what is left in a {@link Tally}; the next pass takes its {@link Phase} from that count. The
 * pace is the caller's: the churn budget of each pass.
 */
public final class Rollback
{
  private Rollback()
  {
  }

  /** Where a rollback stands after a pass over the segments. */
  public enum Phase
  {
    /** Some segment has fewer loaded replicas than the stock count: load, drop nothing. */
    LOADING,
    /** Every segment has at least the stock count, some more: drop down to it. */
    DROPPING,
    /** Every segment has exactly the stock count. */
    DONE
  }

  /**
   * The replica count a segment should be asked for in {@code phase}: at least what it has while loading, the
   * stock count afterwards.
   *
   * @param stock  the stock rule's replica count for the segment's tier
   * @param loaded the replicas that serve it now
   */
  public static int replicas(Phase phase, int stock, int loaded)
  {
    return phase == Phase.LOADING ? Math.max(stock, loaded) : stock;
  }

  /**
   * What one pass over the segments left to do.
   *
   * @param belowStock segments with fewer loaded replicas than the stock count
   * @param aboveStock segments with more
   * @param segments   segments counted
   */
  public record Progress(int belowStock, int aboveStock, int segments)
  {
    /** The phase of the pass after this one. */
    public Phase phase()
    {
      return belowStock > 0 ? Phase.LOADING : aboveStock > 0 ? Phase.DROPPING : Phase.DONE;
    }
  }

  /** Counts one pass; used by one thread at a time, read once the pass has ended. */
  public static final class Tally
  {
    private int belowStock;
    private int aboveStock;
    private int segments;

    /** Counts a segment that has {@code loaded} replicas where the stock rule asks for {@code stock}. */
    public void count(int stock, int loaded)
    {
      segments++;
      if (loaded < stock) {
        belowStock++;
      } else if (loaded > stock) {
        aboveStock++;
      }
    }

    /** Whether the pass counted any segment, i.e. it was a rollback pass. */
    public boolean counted()
    {
      return segments > 0;
    }

    public Progress progress()
    {
      return new Progress(belowStock, aboveStock, segments);
    }
  }
}
