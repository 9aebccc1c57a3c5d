package io.signalbox.controlplane.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.HttpStatus;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * The errors Jetty answers itself, before a request reaches Javalin (a path with {@code %00}, a
 * malformed request line or header), in the API's one error shape {@code {"code", "message"}}
 * instead of Jetty's HTML page.
 */
final class JettyErrors extends ErrorHandler {

  private final ObjectMapper json;

  JettyErrors(ObjectMapper json) {
    this.json = json;
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, "application/json");
    return ByteBuffer.wrap(body(status, "the request cannot be parsed: "
        + (reason == null ? HttpStatus.forStatus(status).getMessage() : reason)));
  }

  @Override
  protected void generateAcceptableResponse(Request baseRequest, HttpServletRequest request,
      HttpServletResponse response, int code, String message) throws IOException {
    baseRequest.setHandled(true);
    response.setContentType("application/json");
    response.getOutputStream().write(body(code, message == null ? HttpStatus.forStatus(code).getMessage() : message));
  }

  private byte[] body(int status, String message) {
    try {
      return json.writeValueAsBytes(new ApiError(AdminServer.codeOf(HttpStatus.forStatus(status)), message));
    } catch (JsonProcessingException e) {
      return ("{\"code\": \"internal\", \"message\": \"error " + status + "\"}").getBytes(StandardCharsets.UTF_8);
    }
  }
}
