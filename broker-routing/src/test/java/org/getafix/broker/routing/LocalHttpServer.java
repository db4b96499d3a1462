package org.getafix.broker.routing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A real HTTP server on an ephemeral localhost port, answering one path with whatever the test scripts. */
final class LocalHttpServer implements AutoCloseable
{
  record Reply(int status, String body, String etag)
  {
  }

  private final HttpServer server;
  private final List<String> ifNoneMatch = new CopyOnWriteArrayList<>();
  private volatile Function<HttpExchange, Reply> handler;

  LocalHttpServer(String path, Function<HttpExchange, Reply> handler) throws IOException
  {
    this.handler = handler;
    this.server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
    server.createContext(path, exchange -> {
      ifNoneMatch.add(String.valueOf(exchange.getRequestHeaders().getFirst("If-None-Match")));
      final Reply reply = this.handler.apply(exchange);
      if (reply.etag() != null) {
        exchange.getResponseHeaders().add("ETag", reply.etag());
      }
      final byte[] body = reply.body() == null ? new byte[0] : reply.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
  }

  int port()
  {
    return server.getAddress().getPort();
  }

  void answer(Function<HttpExchange, Reply> handler)
  {
    this.handler = handler;
  }

  /** The If-None-Match header of each request so far ("null" when absent). */
  List<String> ifNoneMatchHeaders()
  {
    return ifNoneMatch;
  }

  @Override
  public void close()
  {
    server.stop(0);
  }
}
