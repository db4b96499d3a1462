package org.getafix.druid.testauth;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.google.common.util.concurrent.ListenableFuture;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.java.util.http.client.Request;
import org.apache.druid.java.util.http.client.response.HttpResponseHandler;
import org.apache.druid.server.security.AuthenticationResult;
import org.apache.druid.server.security.Escalator;
import org.joda.time.Duration;

/** TEST ONLY: internal requests carry {@link HeaderAuthenticator#HEADER}: {@value RoleAuthorizer#SYSTEM}. */
public class HeaderEscalator implements Escalator
{
  private final String authorizerName;

  @JsonCreator
  public HeaderEscalator(@JsonProperty("authorizerName") String authorizerName)
  {
    this.authorizerName = authorizerName;
  }

  @Override
  public HttpClient createEscalatedClient(HttpClient baseClient)
  {
    return new HttpClient()
    {
      @Override
      public <I, F> ListenableFuture<F> go(Request request, HttpResponseHandler<I, F> handler)
      {
        return baseClient.go(escalate(request), handler);
      }

      @Override
      public <I, F> ListenableFuture<F> go(Request request, HttpResponseHandler<I, F> handler, Duration timeout)
      {
        return baseClient.go(escalate(request), handler, timeout);
      }
    };
  }

  @Override
  public AuthenticationResult createEscalatedAuthenticationResult()
  {
    return new AuthenticationResult(RoleAuthorizer.SYSTEM, authorizerName, null, null);
  }

  private static Request escalate(Request request)
  {
    return request.setHeader(HeaderAuthenticator.HEADER, RoleAuthorizer.SYSTEM);
  }
}
