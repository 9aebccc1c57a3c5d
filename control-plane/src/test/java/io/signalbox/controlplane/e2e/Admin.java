package io.signalbox.controlplane.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The admin HTTP API of a Signalbox under test, over real HTTP. */
final class Admin {

  record Reply(int status, String body) {}

  private static final ObjectMapper json = new ObjectMapper();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final int port;

  Admin(int port) {
    this.port = port;
  }

  int port() {
    return port;
  }

  Reply get(String path) {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(5)).GET().build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      return new Reply(response.statusCode(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + path + " on port " + port, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** A POST with a JSON body (none when empty). */
  Reply post(String path, String body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(15));
    request = body.isEmpty() ? request.POST(HttpRequest.BodyPublishers.noBody())
        : request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    try {
      HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Reply(response.statusCode(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("POST " + path + " on port " + port, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  JsonNode getJson(String path) {
    Reply reply = get(path);
    if (reply.status() != 200) {
      throw new AssertionError("GET " + path + " answered " + reply.status() + ": " + reply.body());
    }
    try {
      return json.readTree(reply.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code GET /api/v1/status}. */
  JsonNode status() {
    return getJson("/api/v1/status");
  }

  long epoch() {
    return status().get("epoch").asLong();
  }

  /** The newest stored epoch, per {@code GET /api/v1/epochs?limit=1}. */
  long newestStoredEpoch() {
    return getJson("/api/v1/epochs?limit=1").get(0).get("epoch").asLong();
  }

  /** The value of an unlabelled gauge at {@code /metrics}. */
  double metric(String name) {
    for (String line : get("/metrics").body().split("\n")) {
      if (line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(name.length() + 1).trim());
      }
    }
    throw new AssertionError("no metric " + name + " at /metrics");
  }
}
