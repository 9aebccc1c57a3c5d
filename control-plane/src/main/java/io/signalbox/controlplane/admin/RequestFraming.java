package io.signalbox.controlplane.admin;

import io.javalin.http.HttpStatus;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.Locale;

/**
 * HTTP framing that Jetty and Javalin let through but the API refuses before any route runs: each
 * was answered as if it were well formed (issue 29's adversarial table), so a proxy or client that
 * reads the request differently from Signalbox would act on another request than the one applied.
 */
final class RequestFraming {

  private RequestFraming() {}

  static void check(HttpServletRequest request) {
    String method = request.getMethod();
    // Methods are case-sensitive (RFC 9110 §9.1): "delete" is not DELETE, though the router matched it.
    if (!method.equals(method.toUpperCase(Locale.ROOT))) {
      throw new ApiException(HttpStatus.NOT_IMPLEMENTED, "unknown_method",
          "HTTP methods are case-sensitive: '" + method + "' is not a method this API serves");
    }
    // Two credentials: which one applies would depend on the reader (Jetty takes the first).
    if (Collections.list(request.getHeaders("Authorization")).size() > 1) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "ambiguous_authorization",
          "more than one Authorization header; send exactly one");
    }
    // A coding the server does not apply must not be ignored (RFC 9112 §6.1: answer 501).
    for (String value : Collections.list(request.getHeaders("Transfer-Encoding"))) {
      for (String coding : value.split(",")) {
        if (!coding.strip().equalsIgnoreCase("chunked")) {
          throw new ApiException(HttpStatus.NOT_IMPLEMENTED, "unsupported_transfer_coding",
              "Transfer-Encoding '" + coding.strip() + "' is not supported; send the body as is or chunked");
        }
      }
    }
  }
}
