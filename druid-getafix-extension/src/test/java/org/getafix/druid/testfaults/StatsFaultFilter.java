package org.getafix.druid.testfaults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import javax.annotation.Nullable;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletOutputStream;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.WriteListener;
import javax.servlet.http.HttpServletResponse;
import javax.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * TEST ONLY: while its fault file exists, rewrites each successful statistics report before it leaves the node. The
 * file is a JSON object with up to two members, applied to the report's top-level fields in this order:
 * {@code "set"} (field → the value to report instead, any JSON) and {@code "add"} (field → a whole number added to
 * the genuine counter). A fault file is read on every request, so a test switches a fault on and off by writing and
 * deleting it; a file that is not valid JSON fails the request, so a test's mistake does not pass for a clean run.
 */
public class StatsFaultFilter implements Filter
{
  private final Path faultFile;
  private final ObjectMapper mapper;

  /**
   * @param faultFile the fault file, or null on a node without one: the filter then passes every report through
   */
  public StatsFaultFilter(@Nullable Path faultFile, ObjectMapper mapper)
  {
    this.faultFile = faultFile;
    this.mapper = mapper;
  }

  @Override
  public void init(FilterConfig filterConfig)
  {
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException
  {
    final JsonNode fault = readFault();
    if (fault == null) {
      chain.doFilter(request, response);
      return;
    }
    final BufferedResponse buffered = new BufferedResponse((HttpServletResponse) response);
    chain.doFilter(request, buffered);
    byte[] body = buffered.body();
    if (buffered.getStatus() == HttpServletResponse.SC_OK) {
      final ObjectNode report = (ObjectNode) mapper.readTree(body);
      apply(fault, report);
      body = mapper.writeValueAsBytes(report);
    }
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  static void apply(JsonNode fault, ObjectNode report)
  {
    for (Iterator<Map.Entry<String, JsonNode>> it = fault.path("set").fields(); it.hasNext(); ) {
      final Map.Entry<String, JsonNode> e = it.next();
      report.set(e.getKey(), e.getValue());
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = fault.path("add").fields(); it.hasNext(); ) {
      final Map.Entry<String, JsonNode> e = it.next();
      report.put(e.getKey(), report.path(e.getKey()).asLong() + e.getValue().asLong());
    }
  }

  @Nullable
  private JsonNode readFault() throws IOException
  {
    if (faultFile == null) {
      return null;
    }
    try {
      return mapper.readTree(Files.readAllBytes(faultFile));
    }
    catch (NoSuchFileException e) {
      return null;
    }
  }

  @Override
  public void destroy()
  {
  }

  /** Keeps what the resource writes, so that the filter can rewrite it before anything reaches the client. */
  private static final class BufferedResponse extends HttpServletResponseWrapper
  {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final ServletOutputStream stream = new ServletOutputStream()
    {
      @Override
      public boolean isReady()
      {
        return true;
      }

      @Override
      public void setWriteListener(WriteListener writeListener)
      {
        throw new UnsupportedOperationException("the statistics resource writes synchronously");
      }

      @Override
      public void write(int b)
      {
        bytes.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len)
      {
        bytes.write(b, off, len);
      }
    };
    private PrintWriter writer;

    BufferedResponse(HttpServletResponse response)
    {
      super(response);
    }

    byte[] body()
    {
      if (writer != null) {
        writer.flush();
      }
      return bytes.toByteArray();
    }

    @Override
    public ServletOutputStream getOutputStream()
    {
      return stream;
    }

    @Override
    public PrintWriter getWriter()
    {
      if (writer == null) {
        writer = new PrintWriter(new OutputStreamWriter(bytes, StandardCharsets.UTF_8));
      }
      return writer;
    }

    @Override
    public void setContentLength(int len)
    {
      // The rewritten body has its own length.
    }

    @Override
    public void setContentLengthLong(long len)
    {
      // The rewritten body has its own length.
    }

    @Override
    public void setHeader(String name, String value)
    {
      if (!"Content-Length".equalsIgnoreCase(name)) {
        super.setHeader(name, value);
      }
    }

    @Override
    public void addHeader(String name, String value)
    {
      if (!"Content-Length".equalsIgnoreCase(name)) {
        super.addHeader(name, value);
      }
    }

    @Override
    public void flushBuffer()
    {
      // Nothing may reach the client before the rewrite.
    }
  }
}
