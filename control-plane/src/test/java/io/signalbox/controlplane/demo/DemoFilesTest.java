package io.signalbox.controlplane.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.signalbox.controlplane.cli.ConfigCheck;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the demo writes for its server is a valid setup, and its report counts what each backend answered. */
class DemoFilesTest {

  static DemoBackends backends;

  @BeforeAll
  static void start() {
    backends = DemoBackends.start(3);
  }

  @AfterAll
  static void stop() {
    backends.close();
  }

  @Test
  void writesAConfigAndEndpointFileThatValidateAccepts(@TempDir Path dir) {
    DemoFiles files = new DemoFiles(dir);
    files.writeEndpoints(backends.all(), 2);
    files.writeConfig(18000, 8080);

    ConfigCheck.Result check = ConfigCheck.of(files.config());

    assertThat(check.errors()).isEmpty();
    assertThat(check.endpoints()).isEqualTo(3);
    assertThat(check.config().xds().address()).isEqualTo("127.0.0.1");
  }

  @Test
  void reportsEachBackendsRequestsSinceTheLastReport() throws Exception {
    TrafficReport report = new TrafficReport(backends.all(), java.time.Duration.ofSeconds(5));
    report.next();
    DemoBackends.Backend b2 = backends.all().get(1);
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", b2.port()).usePlaintext().build();
    try {
      for (int i = 0; i < 3; i++) {
        HealthGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
            .check(HealthCheckRequest.getDefaultInstance());
      }
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    assertThat(report.next()).isEqualTo("demo: requests answered in the last 5s: b1 " + backends.all().get(0).address()
        + " 0, b2 " + b2.address() + " 3, b3 " + backends.all().get(2).address() + " 0");
    assertThat(report.next()).endsWith("b2 " + b2.address() + " 0, b3 " + backends.all().get(2).address() + " 0");
  }
}
