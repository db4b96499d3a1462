package org.getafix.druid;

import com.google.inject.Provider;
import com.google.inject.ProvisionException;
import org.apache.druid.java.util.common.logger.Logger;

import java.util.function.UnaryOperator;

/**
 * A config that Druid's JsonConfigurator binds and that is validated once, at start, so that a bad property stops the
 * node, naming it. The reason is logged before the failure reaches Guice: Druid 33's Guice formats a provisioning
 * error by reading the classes involved, which fails on Java 17 class files and would leave the log without it. That
 * holds for a value Jackson cannot bind (a word where a number goes) as for one out of bounds.
 */
public final class StartupConfigs
{
  private StartupConfigs()
  {
  }

  /**
   * @param asBound  the config as bound, unvalidated
   * @param validate returns the config, or throws naming the bad property
   * @param log      the module's logger, so that the line names the module
   * @param stops    what the line starts with, e.g. {@code Invalid Getafix configuration, the Coordinator stops}
   */
  public static <T> T validated(Provider<T> asBound, UnaryOperator<T> validate, Logger log, String stops)
  {
    try {
      return validate.apply(asBound.get());
    }
    catch (ProvisionException e) {
      e.getErrorMessages().forEach(message -> log.error("%s: %s", stops, message.getMessage()));
      throw e;
    }
    catch (RuntimeException e) {
      log.error("%s: %s", stops, e.getMessage());
      throw e;
    }
  }
}
