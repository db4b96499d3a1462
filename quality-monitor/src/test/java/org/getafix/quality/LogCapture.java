package org.getafix.quality;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

import java.util.List;

/** Collects what one class logs at WARN or above, while open. */
final class LogCapture implements AutoCloseable
{
  private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
  private final String name;
  private final AbstractAppender appender;

  LogCapture(Class<?> logging, List<String> messages)
  {
    this.name = logging.getName();
    this.appender = new AbstractAppender("capture-" + name, null, null, true, Property.EMPTY_ARRAY)
    {
      @Override
      public void append(LogEvent event)
      {
        messages.add(event.getMessage().getFormattedMessage());
      }
    };
    appender.start();
    final Configuration configuration = context.getConfiguration();
    final LoggerConfig logger = new LoggerConfig(name, Level.WARN, false);
    logger.addAppender(appender, Level.WARN, null);
    configuration.addLogger(name, logger);
    context.updateLoggers();
  }

  @Override
  public void close()
  {
    context.getConfiguration().removeLogger(name);
    context.updateLoggers();
    appender.stop();
  }
}
