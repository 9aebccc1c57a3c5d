package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.config.XdsLimitsSettings;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.tls.CertificateFiles;
import io.signalbox.controlplane.tls.TestPki;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How long the xDS server lets a connection live and what it lets it do while idle: a connection
 * that never finishes its handshake is closed after {@code xds.limits.handshakeTimeout}, a client
 * that pings more often than {@code xds.limits.permitKeepAliveTime} is sent away, and a connection
 * older than {@code xds.maxConnectionAge} is closed after its grace, its client reconnecting.
 */
class ConnectionLifetimeTest {

  private static final String EDS = XdsType.ENDPOINT.typeUrl();
  /** HTTP/2 frame types and the GOAWAY error code the server answers a ping flood with (RFC 9113). */
  private static final int SETTINGS = 0x4;
  private static final int PING = 0x6;
  private static final int GOAWAY = 0x7;
  private static final int ENHANCE_YOUR_CALM = 0xb;

  @TempDir Path dir;
  private AdsServer server;
  private RecordingAdsClient client;

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private AdsServer start(CertificateFiles.Paths tls, XdsLimitsSettings limits, Duration maxAge, Duration grace) {
    server = AdsServer.start("127.0.0.1", 0, Waves.NONE, Clock.systemUTC(), new SimpleMeterRegistry(),
        new EdgeSettings(tls, null, limits, maxAge, grace), refusal -> {});
    server.publish(new TestResources().with("a", List.of(1001)));
    return server;
  }

  private static XdsLimitsSettings limits(Duration permitKeepAliveTime, Duration handshakeTimeout) {
    return new XdsLimitsSettings(null, null, null, null, permitKeepAliveTime, handshakeTimeout);
  }

  @Test
  void aConnectionThatNeverStartsItsTlsHandshakeIsClosedAfterTheHandshakeTimeout() throws IOException {
    TestPki ca = TestPki.ca("lifetime-ca");
    TestPki.PemFiles files = ca.server("signalbox-xds").written(dir, "xds");
    start(new CertificateFiles.Paths("xds.tls", files.cert(), files.key(), null),
        limits(null, Duration.ofSeconds(1)), Duration.ofMinutes(30), Duration.ofMinutes(1));

    try (Socket silent = new Socket("127.0.0.1", server.port())) {
      // Far below grpc's own default of 120 s: a read that times out means the limit is not applied.
      silent.setSoTimeout(30_000);
      assertThat(readUntilClosed(silent)).isTrue();
    }
  }

  @Test
  void aClientPingingMoreOftenThanPermittedIsSentAwayWithEnhanceYourCalm() throws IOException {
    start(null, limits(Duration.ofSeconds(10), null), Duration.ofMinutes(30), Duration.ofMinutes(1));

    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.write(frame(SETTINGS, 0, new byte[0]));
      out.flush();

      // One ping at a time, each answered before the next: the server closes right after its
      // GOAWAY, and pings it never read would turn that close into a reset (and a write into a
      // broken pipe) before the GOAWAY is read.
      DataInputStream in = new DataInputStream(socket.getInputStream());
      byte[] goAway = null;
      for (long i = 0; i < 10 && goAway == null; i++) {
        out.write(frame(PING, 0, ByteBuffer.allocate(8).putLong(i).array()));
        out.flush();
        boolean answered = false;
        while (!answered && goAway == null) {
          int length = in.readUnsignedShort() << 8 | in.readUnsignedByte();
          int type = in.readUnsignedByte();
          int flags = in.readUnsignedByte();
          in.readInt();
          byte[] payload = in.readNBytes(length);
          if (type == GOAWAY) {
            goAway = payload;
          }
          answered = type == PING && (flags & 1) != 0;
        }
      }
      assertThat(goAway).as("GOAWAY within 10 early pings").isNotNull();
      ByteBuffer frame = ByteBuffer.wrap(goAway);
      frame.getInt();
      assertThat(frame.getInt()).isEqualTo(ENHANCE_YOUR_CALM);
      assertThat(new String(goAway, 8, goAway.length - 8, StandardCharsets.US_ASCII)).isEqualTo("too_many_pings");
    }
  }

  @Test
  void aConnectionOlderThanTheMaxAgeIsClosedAfterItsGraceAndTheClientComesBack() throws Exception {
    start(null, XdsLimitsSettings.defaults(), Duration.ofSeconds(1), Duration.ofSeconds(1));
    client = new RecordingAdsClient(server.port());
    client.openSotw().autoAnswer(r -> null).subscribe(RecordingAdsClient.node("web-1"), EDS, List.of("a"));
    assertThat(client.<DiscoveryResponse>next().getResourcesCount()).isEqualTo(1);

    // The default age is 30 minutes; a stream still open after this wait means the setting is not applied.
    await().atMost(Duration.ofSeconds(30)).until(() -> client.error() != null);
    assertThat(Status.fromThrowable(client.error()).getCode()).isEqualTo(Status.Code.UNAVAILABLE);

    client.openSotw().autoAnswer(r -> null).subscribe(RecordingAdsClient.node("web-1"), EDS, List.of("a"));
    assertThat(client.<DiscoveryResponse>next().getResourcesCount()).isEqualTo(1);
  }

  private static byte[] frame(int type, int flags, byte[] payload) {
    return ByteBuffer.allocate(9 + payload.length)
        .put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
        .put((byte) type).put((byte) flags).putInt(0).put(payload).array();
  }

  /** Reads and discards until the server closes the connection; true when it did. */
  private static boolean readUntilClosed(Socket socket) throws IOException {
    try {
      while (socket.getInputStream().read() >= 0) {
        // nothing: the server sends nothing before the client's hello
      }
      return true;
    } catch (EOFException | SocketException closed) {
      return true;
    }
  }
}
