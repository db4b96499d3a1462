package org.getafix.druid.testauth;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.druid.server.security.AuthConfig;
import org.apache.druid.server.security.AuthenticationResult;
import org.apache.druid.server.security.Authenticator;

import javax.annotation.Nullable;
import javax.servlet.DispatcherType;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;

/**
 * TEST ONLY (extension {@code getafix-test-harness}): trusts the user named in the {@value #HEADER} header, and gives
 * requests without it {@code anonymousIdentity} when that is set (so that test tooling which sends no header keeps
 * working). A stand-in for druid-basic-security, which does not resolve from the reachable Maven Central; never use
 * it in production.
 */
public class HeaderAuthenticator implements Authenticator
{
  public static final String TYPE = "getafixTestHeader";
  public static final String HEADER = "X-Getafix-Test-User";

  private final String name;
  private final String authorizerName;
  @Nullable
  private final String anonymousIdentity;

  @JsonCreator
  public HeaderAuthenticator(
      @JsonProperty("name") String name,
      @JsonProperty("authorizerName") String authorizerName,
      @JsonProperty("anonymousIdentity") @Nullable String anonymousIdentity
  )
  {
    this.name = name;
    this.authorizerName = authorizerName;
    this.anonymousIdentity = anonymousIdentity;
  }

  @Override
  public Filter getFilter()
  {
    return new Filter()
    {
      @Override
      public void init(FilterConfig filterConfig)
      {
      }

      @Override
      public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
          throws IOException, ServletException
      {
        final String header = ((HttpServletRequest) request).getHeader(HEADER);
        final String user = header == null || header.isBlank() ? anonymousIdentity : header;
        if (user != null) {
          request.setAttribute(
              AuthConfig.DRUID_AUTHENTICATION_RESULT,
              new AuthenticationResult(user, authorizerName, name, null)
          );
        }
        chain.doFilter(request, response);
      }

      @Override
      public void destroy()
      {
      }
    };
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
  public String getPath()
  {
    return "/*";
  }

  @Override
  public EnumSet<DispatcherType> getDispatcherType()
  {
    return null;
  }

  @Nullable
  @Override
  public String getAuthChallengeHeader()
  {
    return null;
  }

  @Nullable
  @Override
  public AuthenticationResult authenticateJDBCContext(Map<String, Object> context)
  {
    return null;
  }
}
