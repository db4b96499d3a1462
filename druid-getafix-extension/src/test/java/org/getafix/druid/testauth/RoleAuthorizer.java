package org.getafix.druid.testauth;

import org.apache.druid.server.security.Access;
import org.apache.druid.server.security.Action;
import org.apache.druid.server.security.AuthenticationResult;
import org.apache.druid.server.security.Authorizer;
import org.apache.druid.server.security.Resource;

/**
 * TEST ONLY: {@value #ADMIN} and the internal {@value #SYSTEM} user may do anything, {@value #READER} may only
 * READ, everyone else nothing.
 */
public class RoleAuthorizer implements Authorizer
{
  public static final String TYPE = "getafixTestRoles";
  public static final String ADMIN = "admin";
  public static final String READER = "reader";
  public static final String SYSTEM = "druid_system";

  @Override
  public Access authorize(AuthenticationResult authenticationResult, Resource resource, Action action)
  {
    final String user = authenticationResult.getIdentity();
    if (ADMIN.equals(user) || SYSTEM.equals(user)) {
      return Access.OK;
    }
    if (READER.equals(user) && action == Action.READ) {
      return Access.OK;
    }
    return Access.deny(user + " may not " + action + " " + resource.getType() + " " + resource.getName());
  }
}
