package org.getafix.druid.testauth;

import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.google.inject.Binder;
import org.apache.druid.initialization.DruidModule;

import java.util.List;

/**
 * TEST ONLY: the authorization of the extension {@code getafix-test-harness}, packaged from this module's test
 * classes into {@code target/extension/getafix-test-harness/}. Configure with
 * {@code druid.auth.authenticatorChain=["test"]}, {@code druid.auth.authenticator.test.type=getafixTestHeader},
 * {@code druid.auth.authenticator.test.authorizerName=test}, {@code druid.auth.authorizers=["test"]},
 * {@code druid.auth.authorizer.test.type=getafixTestRoles}, {@code druid.escalator.type=getafixTestHeader},
 * {@code druid.escalator.authorizerName=test}.
 */
public class TestAuthModule implements DruidModule
{
  @Override
  public List<? extends Module> getJacksonModules()
  {
    return List.of(new SimpleModule("GetafixTestAuth").registerSubtypes(
        new NamedType(HeaderAuthenticator.class, HeaderAuthenticator.TYPE),
        new NamedType(RoleAuthorizer.class, RoleAuthorizer.TYPE),
        new NamedType(HeaderEscalator.class, HeaderAuthenticator.TYPE)
    ));
  }

  @Override
  public void configure(Binder binder)
  {
  }
}
