package org.getafix.broker.routing;

import org.apache.druid.client.DirectDruidClient;
import org.apache.druid.jackson.DefaultObjectMapper;

/**
 * A real {@link DirectDruidClient} whose open-connection count a test sets instead of opening connections: the
 * count is the only thing selector strategies read from the client.
 */
final class FixedConnectionsClient<T> extends DirectDruidClient<T>
{
  private volatile int openConnections;

  FixedConnectionsClient(String host, int openConnections)
  {
    super(null, null, new DefaultObjectMapper(), null, "http", host, null, null);
    this.openConnections = openConnections;
  }

  void setOpenConnections(int openConnections)
  {
    this.openConnections = openConnections;
  }

  @Override
  public int getNumOpenConnections()
  {
    return openConnections;
  }
}
