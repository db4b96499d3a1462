package org.getafix.it.cluster;

import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 glue for {@link SharedDruidCluster}: {@code @ExtendWith(DruidClusterExtension.class)} makes the shared
 * cluster stop when the whole test run ends (not after each class, so classes share it), and injects the default
 * cluster into test and lifecycle method parameters of type {@link LocalDruidCluster}.
 */
public final class DruidClusterExtension implements BeforeAllCallback, ParameterResolver
{
  @Override
  public void beforeAll(ExtensionContext context)
  {
    // A resource in the root store is closed once, when the test plan has finished.
    context.getRoot()
           .getStore(ExtensionContext.Namespace.GLOBAL)
           .getOrComputeIfAbsent(
               DruidClusterExtension.class.getName(),
               key -> (ExtensionContext.Store.CloseableResource) SharedDruidCluster::stop
           );
  }

  @Override
  public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext)
  {
    return parameterContext.getParameter().getType() == LocalDruidCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext)
  {
    try {
      return SharedDruidCluster.acquire();
    }
    catch (Exception e) {
      throw new IllegalStateException("Could not start the shared Druid cluster: " + e.getMessage(), e);
    }
  }
}
