package org.getafix.demo;

/**
 * A Historical of the demo cluster.
 *
 * @param host   Druid server name, {@code host:port}
 * @param name   launcher name, {@code historical-N}
 * @param quota  CPU cap it was started with, in cores
 */
public record Node(String host, String name, double quota)
{
}
