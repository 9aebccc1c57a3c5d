package io.signalbox.controlplane.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Framing the router would accept as if well formed is refused before any route runs. */
class RequestFramingTest {

  @TempDir static Path dir;
  static RunningSignalbox sb;

  @BeforeAll
  static void start() throws Exception {
    sb = RunningSignalbox.start(dir, "port: 0");
  }

  @AfterAll
  static void stop() {
    sb.close();
  }

  @Test
  void aLowerCaseMethodIsNotTheUpperCaseOne() throws IOException {
    String answer = exchange("post /api/v1/freeze HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    assertThat(answer).startsWith("HTTP/1.1 501").contains("\"code\":\"unknown_method\"")
        .contains("HTTP methods are case-sensitive: 'post' is not a method this API serves");
    assertThat(sb.get("/api/v1/status").body()).contains("\"frozen\":false");
  }

  @Test
  void twoAuthorizationHeadersAreRefused() throws IOException {
    String answer = exchange("GET /api/v1/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        + "Authorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n");
    assertThat(answer).startsWith("HTTP/1.1 400").contains("\"code\":\"ambiguous_authorization\"");
  }

  @Test
  void aTransferCodingOtherThanChunkedIsRefused() throws IOException {
    String answer = exchange("POST /api/v1/freeze HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        + "Content-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n");
    assertThat(answer).startsWith("HTTP/1.1 501").contains("\"code\":\"unsupported_transfer_coding\"")
        .contains("Transfer-Encoding 'gzip' is not supported");
    assertThat(sb.get("/api/v1/status").body()).contains("\"frozen\":false");
  }

  private static String exchange(String request) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), sb.server.adminPort())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
