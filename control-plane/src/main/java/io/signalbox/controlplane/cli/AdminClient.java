package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * The admin API as the CLI uses it: one request at a time, JSON in and out, and every way it can
 * fail turned into the one line an operator reads (DESIGN §6).
 */
final class AdminClient {

  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
  /** Longer than the server's own 10 s handler timeout, so its 503 {@code timeout} reaches the operator. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

  private final String server;
  private final String token;
  private final CaCertificates.Trust cacert;
  private final HttpClient http;

  /** @param cacert the CAs an https server's certificate must chain to; null: the JVM's trust store */
  AdminClient(String server, String token, CaCertificates.Trust cacert) {
    this.server = server;
    this.token = token;
    this.cacert = cacert;
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT);
    if (cacert != null) {
      builder.sslContext(cacert.context());
    }
    this.http = builder.build();
  }

  /** One path segment, percent-encoded: endpoints hold {@code :} and IPv6 brackets. */
  static String segment(String raw) {
    return URLEncoder.encode(raw, StandardCharsets.UTF_8).replace("+", "%20");
  }

  JsonNode get(String path) {
    return send("GET", path, null);
  }

  JsonNode post(String path, Map<String, ?> body) {
    return send("POST", path, body);
  }

  JsonNode delete(String path) {
    return send("DELETE", path, null);
  }

  /** @param body serialized as JSON; null sends no body */
  JsonNode send(String method, String path, Map<String, ?> body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server + path))
        .timeout(REQUEST_TIMEOUT)
        .header("Accept", "application/json");
    if (token != null && !token.isBlank()) {
      request.header("Authorization", "Bearer " + token.strip());
    }
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(Json.write(body)));
    }
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw CliFailure.failed(unreachable(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CliFailure.failed("interrupted");
    }
    if (response.statusCode() >= 400) {
      throw CliFailure.failed(refused(response));
    }
    return response.body().isBlank() ? MissingNode.getInstance() : Json.read(response.body(), () ->
        "the answer of " + server + path + " is not JSON; is that a Signalbox admin server?");
  }

  private String unreachable(IOException e) {
    if (e instanceof HttpConnectTimeoutException) {
      return "cannot reach " + server + " (no connection within " + CONNECT_TIMEOUT.toSeconds() + "s)";
    }
    if (e instanceof HttpTimeoutException) {
      return server + " did not answer within " + REQUEST_TIMEOUT.toSeconds() + "s";
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
        return "cannot reach " + server + " (unknown host)";
      }
      if (t instanceof CertPathBuilderException || t instanceof CertPathValidatorException) {
        return "cannot reach " + server + ": its certificate is not trusted ("
            + (cacert == null ? "pass --cacert FILE or set SIGNALBOX_CACERT" : "it does not chain to --cacert "
                + cacert.file()) + ")";
      }
      if (t instanceof CertificateException && t.getMessage() != null && t.getMessage().startsWith("No ")) {
        // The JDK's hostname check: "No subject alternative names matching IP address ... found".
        return "cannot reach " + server + ": its certificate does not name the host (" + t.getMessage() + ")";
      }
    }
    if (e instanceof SSLException) {
      return "cannot reach " + server + ": TLS failed (" + e.getMessage() + ")"
          + (server.startsWith("http://") ? "" : "; is the admin server serving HTTPS (admin.tls)?");
    }
    if (e instanceof ConnectException) {
      return "cannot reach " + server + " (connection refused)";
    }
    if (server.startsWith("http://") && e.getMessage() != null && (e.getMessage().startsWith("parsing HTTP/1.1")
        || e.getMessage().startsWith("HTTP/1.1 header parser received no bytes"))) {
      // A TLS server's answer to plain HTTP is an alert, not a status line.
      return "cannot reach " + server + ": it does not answer plain HTTP; if it serves HTTPS (admin.tls), use https://";
    }
    return "cannot reach " + server + " (" + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
        + ")";
  }

  /** The server's own message (its 404s already suggest the closest names), prefixed for 401 and 403. */
  private String refused(HttpResponse<String> response) {
    JsonNode error = Json.read(response.body(), () -> null);
    String message = error == null ? "" : Json.text(error, "message");
    if (message.isEmpty()) {
      return response.request().method() + " " + response.uri() + " answered HTTP " + response.statusCode();
    }
    return switch (response.statusCode()) {
      case 401 -> "unauthorized: " + message
          + (token == null || token.isBlank() ? "; pass --token or set SIGNALBOX_TOKEN" : "");
      case 403 -> "forbidden: " + message;
      default -> message;
    };
  }
}
