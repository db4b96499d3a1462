package org.getafix.druid.testfaults;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Binder;
import com.google.inject.Provides;
import com.google.inject.multibindings.Multibinder;
import org.apache.druid.guice.annotations.Json;
import org.apache.druid.initialization.DruidModule;
import org.apache.druid.server.initialization.jetty.ServletFilterHolder;
import org.getafix.core.wire.HistoricalStatsReport;

import javax.servlet.DispatcherType;
import javax.servlet.Filter;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Properties;

/**
 * TEST ONLY: lets an integration test make one real Historical serve poisoned statistics, as a faulty or hostile
 * Historical would. A Historical started with {@value #FAULT_FILE_PROPERTY} set rewrites the reports it serves at
 * {@link HistoricalStatsReport#PATH} as the JSON in that file says ({@link StatsFaultFilter}) while the file exists,
 * and serves them untouched otherwise. Nodes without the property are not affected.
 */
public class StatsFaultModule implements DruidModule
{
  public static final String FAULT_FILE_PROPERTY = "getafixtest.statsFaultFile";

  @Override
  public void configure(Binder binder)
  {
    Multibinder.newSetBinder(binder, ServletFilterHolder.class).addBinding().to(StatsFaultFilterHolder.class);
  }

  @Provides
  StatsFaultFilterHolder filterHolder(Properties properties, @Json ObjectMapper mapper)
  {
    final String file = properties.getProperty(FAULT_FILE_PROPERTY);
    return new StatsFaultFilterHolder(new StatsFaultFilter(file == null ? null : Path.of(file), mapper));
  }

  /** The filter on the statistics path. */
  static final class StatsFaultFilterHolder implements ServletFilterHolder
  {
    private final Filter filter;

    StatsFaultFilterHolder(Filter filter)
    {
      this.filter = filter;
    }

    @Override
    public Filter getFilter()
    {
      return filter;
    }

    @Override
    public Class<? extends Filter> getFilterClass()
    {
      return null;
    }

    @Override
    public Map<String, String> getInitParameters()
    {
      return null;
    }

    @Override
    @Deprecated
    public String getPath()
    {
      return HistoricalStatsReport.PATH;
    }

    @Override
    public EnumSet<DispatcherType> getDispatcherType()
    {
      return EnumSet.of(DispatcherType.REQUEST);
    }
  }
}
