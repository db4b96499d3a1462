package org.getafix.quality;

import org.jboss.netty.channel.ChannelException;

import javax.annotation.Nullable;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.nio.channels.ClosedChannelException;

/**
 * Whether a failure is a server that could not be reached, wherever in its causes Druid's client put it: the
 * connection was refused or had no route, or the channel failed or closed (Druid's HTTP client reports a connection
 * it could not open, and one the server dropped, as netty's {@link ChannelException}). An error the server answered
 * with is not one of these: another holder would answer the same.
 */
final class Unreachable
{
  private Unreachable()
  {
  }

  static boolean isUnreachable(@Nullable Throwable thrown)
  {
    for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof NoRouteToHostException
          || t instanceof ClosedChannelException
          || t instanceof ChannelException) {
        return true;
      }
    }
    return false;
  }
}
