package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.signalbox.controlplane.admin.AnsweringAdsClient;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.TypeStatus;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code signalbox config <client>}: what one real ADS client holds, its NACK, and the diff to the current epoch. */
class ConfigCommandTest {

  static final String EDS = XdsType.ENDPOINT.typeUrl();

  @TempDir Path dir;
  RunningSignalbox sb;

  @BeforeEach
  void start() {
    sb = RunningSignalbox.start(dir, 1, "", "");
  }

  @AfterEach
  void stop() {
    sb.close();
  }

  private TypeStatus eds(String nodeId) {
    return sb.server.xds().clients().stream().filter(c -> c.nodeId().equals(nodeId)).findFirst()
        .map(ClientStatus::types).map(t -> t.get(EDS)).orElse(null);
  }

  private String version(long epoch) {
    return sb.server.store().load(epoch).map(Snapshot::fromEnvelope).orElseThrow().resources(XdsType.ENDPOINT)
        .get("greeter").version();
  }

  @Test
  void showsTheHeldEndpointsTheNackAndTheWeightTheCurrentEpochWouldChange() throws Exception {
    long held = sb.epoch();
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "cfg-1", "web")) {
      await().atMost(Duration.ofSeconds(10)).until(() -> eds("cfg-1") != null && eds("cfg-1").ackedEpoch() == held);
      client.rejectWith = "weights not supported";
      RunningSignalbox.write(dir, "endpoints.yaml",
          "clusters:\n  greeter:\n    - { address: 127.0.0.1, port: 50001, zone: a, weight: 5 }\n");
      await().atMost(Duration.ofSeconds(10)).until(() -> eds("cfg-1").nack() != null);
      long next = sb.epoch();
      TypeStatus eds = eds("cfg-1");
      // version_info names the epoch that last changed the type: not repeated beside it.
      assertThat(eds.sentVersion()).isEqualTo(Long.toString(next));
      assertThat(eds.ackedVersion()).isEqualTo(Long.toString(held));
      ClientStatus status = sb.server.xds().clients().get(0);
      // The replica serving the stream, as status names this one (it said "replica  stream 1", issue 42).
      String replica = new ObjectMapper()
          .readTree(Cli.against(sb, "status", "-o", "json").out()).get("replicaId").asText();
      assertThat(replica).isNotEmpty();
      assertThat(new ObjectMapper().readTree(Cli.against(sb, "clients", "-o", "json").out()).get(0).get("replicaId")
          .asText()).isEqualTo(replica);

      Cli.Run run = Cli.against(sb, "config", "cfg-1", "--type", "EDS", "--diff");

      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.outLines()).containsExactly(
          "cfg-1 (group web, SotW, replica " + replica + " stream " + status.streamId() + "); current epoch "
              + next,
          "EDS: sent epoch " + next + ", ACKed epoch " + held + "; NACK of epoch " + next
              + " (standing): weights not supported",
          "  RESOURCE  VERSION       EPOCH",
          "  greeter   " + version(held).substring(0, 12) + "  " + held,
          "  to epoch " + next + ":",
          "  ~ greeter 127.0.0.1:50001 weight 1 -> 5");
    }
  }

  @Test
  void anUnknownClientFailsNamingTheClosest() throws Exception {
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "cfg-1", "web")) {
      await().atMost(Duration.ofSeconds(10)).until(() -> eds("cfg-1") != null);

      Cli.Run run = Cli.against(sb, "config", "cfg-2");

      assertThat(run.exit()).isEqualTo(1);
      assertThat(run.err()).isEqualTo("signalbox: no connected client 'cfg-2'; did you mean 'cfg-1'?\n");
    }
  }
}
