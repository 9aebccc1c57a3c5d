package io.signalbox.controlplane.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that send headers and then stall mid-body, over raw sockets against a whole Signalbox:
 * health, status and registry renewals keep answering within a second, and each stalled body is
 * refused with 408 when its deadline passes, its connection closed, nothing changed.
 */
class StalledBodiesTest {

  static final String RENEWED = "/api/v1/registry/orders/endpoints/10.0.0.1:8080";
  static final String RENEWAL = "{\"zone\": \"a\", \"weight\": 3}";
  static final int STALLED = 100;
  /** The bound (issue 29, item 6) for every read and renewal while bodies stall. */
  static final Duration BOUND = Duration.ofSeconds(1);

  @TempDir static Path dir;
  static RegistryServer sb;
  final List<Socket> sockets = new ArrayList<>();
  final ExecutorService clients = Executors.newFixedThreadPool(4);

  @BeforeAll
  static void start() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }");
    assertThat(sb.put(RENEWED, RENEWAL).statusCode()).isEqualTo(201);
  }

  /** The registered endpoints (renewals move a lease's expiry, nothing else). */
  static List<String> registered() {
    List<String> endpoints = new ArrayList<>();
    RunningSignalbox.json(sb.get("/api/v1/registry")).forEach(l -> endpoints.add(l.get("endpoint").asText()));
    return endpoints;
  }

  @AfterAll
  static void stop() {
    sb.close();
  }

  @AfterEach
  void closeSockets() throws IOException {
    clients.shutdownNow();
    for (Socket s : sockets) {
      s.close();
    }
  }

  @Test
  void readsAndRenewalsAnswerWithinASecondWhileAHundredBodiesStall() throws IOException {
    for (int i = 0; i < STALLED; i++) {
      // Half would register a new endpoint, half would freeze the epochs: neither may happen.
      String head = i % 2 == 0
          ? "PUT /api/v1/registry/orders/endpoints/10.0.1." + (i + 1) + ":8080"
          : "POST /api/v1/freeze";
      stall(head + " HTTP/1.1\r\nHost: signalbox\r\nContent-Type: application/json\r\n"
          + "Content-Length: 64\r\n\r\n{\"zone\": \"a");
    }

    // Ten rounds of the four reads the issue names, each round concurrent: they run while every
    // stalled body is in the server (the 5 s deadline is far off, and no stalled socket has an answer).
    long slowestNanos = 0;
    for (int round = 0; round < 10; round++) {
      Map<String, CompletableFuture<Timed>> calls = new LinkedHashMap<>();
      calls.put("GET /healthz", timed(() -> sb.get("/healthz")));
      calls.put("GET /readyz", timed(() -> sb.get("/readyz")));
      calls.put("GET /api/v1/status", timed(() -> sb.get("/api/v1/status")));
      calls.put("PUT " + RENEWED, timed(() -> sb.put(RENEWED, RENEWAL)));
      for (Map.Entry<String, CompletableFuture<Timed>> call : calls.entrySet()) {
        Timed t = call.getValue().join();
        assertThat(t.response().statusCode()).as(call.getKey() + ": " + t.response().body()).isEqualTo(200);
        assertThat(t.nanos()).as(call.getKey() + " in round " + round + ", ns").isLessThan(BOUND.toNanos());
        slowestNanos = Math.max(slowestNanos, t.nanos());
      }
    }
    for (Socket s : sockets) {
      assertThat(s.getInputStream().available()).as("a stalled body answered before its deadline").isZero();
    }
    System.out.printf(Locale.ROOT, "slowest of 40 reads and renewals beside %d stalled bodies: %.1f ms (bound %d ms)%n",
        STALLED, slowestNanos / 1e6, BOUND.toMillis());

    for (Socket s : sockets) {
      Answer answer = answer(s);
      assertThat(answer.status()).as(answer.toString()).isEqualTo(408);
      assertThat(answer.headers()).containsEntry("connection", "close");
      assertThat(answer.json().get("code").asText()).isEqualTo("body_timeout");
      assertThat(answer.json().get("message").asText())
          .isEqualTo("the request body did not arrive within 5000 ms");
      assertThat(s.getInputStream().read()).as("the connection is closed after the 408").isEqualTo(-1);
    }
    assertThat(registered()).containsExactly("10.0.0.1:8080");
    assertThat(sb.server.reconciler().status().frozen()).isFalse();
  }

  @Test
  void aChunkedBodyPastTheLimitIsRefusedWithoutItsLength() throws IOException {
    String chunk = "x".repeat(8192);
    StringBuilder request = new StringBuilder("PUT " + RENEWED + " HTTP/1.1\r\nHost: signalbox\r\n"
        + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
    for (int i = 0; i < 9; i++) { // 72 KiB, and no last chunk: the server must not wait for one
      request.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
    }
    Socket s = stall(request.toString());

    Answer answer = answer(s);

    assertThat(answer.status()).as(answer.toString()).isEqualTo(413);
    assertThat(answer.json().get("code").asText()).isEqualTo("payload_too_large");
    assertThat(answer.json().get("message").asText()).isEqualTo("request bodies are limited to 65536 bytes");
    assertThat(registered()).containsExactly("10.0.0.1:8080");
  }

  record Timed(HttpResponse<String> response, long nanos) {}

  CompletableFuture<Timed> timed(Supplier<HttpResponse<String>> call) {
    return CompletableFuture.supplyAsync(() -> {
      long start = System.nanoTime();
      HttpResponse<String> response = call.get();
      return new Timed(response, System.nanoTime() - start);
    }, clients);
  }

  /** A connection that has sent {@code request} and nothing more. */
  Socket stall(String request) throws IOException {
    Socket s = new Socket("127.0.0.1", sb.server.adminPort());
    sockets.add(s);
    s.setSoTimeout((int) Duration.ofSeconds(30).toMillis());
    s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
    s.getOutputStream().flush();
    return s;
  }

  record Answer(int status, Map<String, String> headers, String body) {

    JsonNode json() {
      try {
        return RunningSignalbox.JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException("not JSON: " + body, e);
      }
    }
  }

  /** One HTTP/1.1 response with a Content-Length, read from the socket (blocking up to its timeout). */
  static Answer answer(Socket s) {
    try {
      InputStream in = s.getInputStream();
      String head = readHead(in);
      String[] lines = head.split("\r\n");
      int status = Integer.parseInt(lines[0].split(" ")[1]);
      Map<String, String> headers = new LinkedHashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
      }
      int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
      return new Answer(status, headers, new String(in.readNBytes(length), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed before a full response head: " + head);
      }
      head.write(b);
      byte[] bytes = head.toByteArray();
      int n = bytes.length;
      if (n >= 4 && bytes[n - 4] == '\r' && bytes[n - 3] == '\n' && bytes[n - 2] == '\r' && bytes[n - 1] == '\n') {
        return new String(bytes, 0, n - 4, StandardCharsets.US_ASCII);
      }
    }
  }
}
