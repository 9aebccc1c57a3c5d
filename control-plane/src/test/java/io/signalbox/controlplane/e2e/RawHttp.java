package io.signalbox.controlplane.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 written byte by byte on a socket, for requests no well-behaved client sends: wrong
 * Content-Length, chunked garbage, unknown methods and versions, huge headers. Every request says
 * {@code Connection: close} unless it is about framing, and the answer is read until the server
 * closes or {@code timeoutMillis} passes without a byte.
 */
final class RawHttp {

  /** The status line's code (0 when the server closed without answering) and the rest as text. */
  record Answer(int status, String text) {

    /** The error body's {@code "code"} value, or empty. */
    String code() {
      int at = text.indexOf("\"code\"");
      if (at < 0) {
        return "";
      }
      int open = text.indexOf('"', text.indexOf(':', at) + 1);
      return text.substring(open + 1, text.indexOf('"', open + 1));
    }
  }

  private RawHttp() {}

  /** Sends {@code head} (the request line and headers, each ending CRLF; the blank line is added) and {@code body}. */
  static Answer exchange(int port, String head, byte[] body, int timeoutMillis) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      socket.setSoTimeout(timeoutMillis);
      OutputStream out = socket.getOutputStream();
      out.write((head + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      try {
        socket.shutdownOutput();
      } catch (IOException ignored) {
        // the server closed first; its answer may still be readable
      }
      return read(socket.getInputStream());
    } catch (IOException e) {
      throw new UncheckedIOException("exchange on port " + port + ": " + head.lines().findFirst().orElse(""), e);
    }
  }

  private static Answer read(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    try {
      for (int n; (n = in.read(buf)) > 0; ) {
        all.write(buf, 0, n);
      }
    } catch (SocketTimeoutException | java.net.SocketException e) {
      // what arrived is the answer; a reset after it is the server closing a connection it refused
    }
    String text = all.toString(StandardCharsets.ISO_8859_1);
    if (!text.startsWith("HTTP/")) {
      return new Answer(0, text);
    }
    return new Answer(Integer.parseInt(text.substring(9, 12)), text);
  }

  /** A connection that sent {@code head} and {@code partial} of a body, and then nothing: a stalled upload. */
  static Socket stall(int port, String head, byte[] partial) {
    try {
      Socket socket = new Socket();
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      OutputStream out = socket.getOutputStream();
      out.write((head + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.write(partial);
      out.flush();
      return socket;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
