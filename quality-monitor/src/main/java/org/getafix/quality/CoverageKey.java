package org.getafix.quality;

import com.fasterxml.jackson.core.JsonParser;
import org.apache.druid.query.context.ResponseContext;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.QueryContextKeys;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The response-context entry {@value QueryContextKeys#COVERAGE} that carries a budgeted query's {@link Coverage} to the
 * client, in the {@code X-Druid-Response-Context} header. Never dropped when the header is too long: the client needs it to know
 * whether the answer is partial.
 */
public final class CoverageKey implements ResponseContext.Key
{
  public static final CoverageKey INSTANCE = new CoverageKey();

  private CoverageKey()
  {
  }

  /** Registers the key with Druid once per JVM (Druid rejects a second registration of a name). */
  public static synchronized ResponseContext.Key register()
  {
    final ResponseContext.Key known = ResponseContext.Keys.instance().find(QueryContextKeys.COVERAGE);
    if (known != null) {
      return known;
    }
    ResponseContext.Keys.instance().registerKey(INSTANCE);
    return INSTANCE;
  }

  /** The coverage recorded in {@code context} so far, {@link Coverage#none()} if none. */
  public static Coverage of(ResponseContext context)
  {
    final Object value = context.get(register());
    return value instanceof Coverage ? (Coverage) value : Coverage.none();
  }

  public static void add(ResponseContext context, Coverage coverage)
  {
    context.add(register(), coverage);
  }

  @Override
  public String getName()
  {
    return QueryContextKeys.COVERAGE;
  }

  @Override
  public boolean includeInHeader()
  {
    return true;
  }

  @Override
  public Object readValue(JsonParser jp)
  {
    try {
      return jp.readValueAs(Coverage.class);
    }
    catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Object mergeValues(Object oldValue, Object newValue)
  {
    return ((Coverage) oldValue).plus((Coverage) newValue);
  }

  @Override
  public boolean canDrop()
  {
    return false;
  }

  @Override
  public String toString()
  {
    return QueryContextKeys.COVERAGE;
  }
}
