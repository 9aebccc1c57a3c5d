package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's admission actions are durable intent (issue 31): a drop and a freeze of ejections
 * set before a restart are in force after it, served and shown, on the embedded PostgreSQL the
 * first process wrote them to.
 */
class AdmissionRestartTest {

  @TempDir Path dir;

  private static HttpResponse<String> post(RegistryServer sb, String path, String body) {
    return sb.send(HttpRequest.newBuilder(sb.uri(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)), null);
  }

  private static List<String> servedDrops(RegistryServer sb) throws Exception {
    XdsResource r = sb.server.reconciler().view().snapshot().resources(XdsType.ENDPOINT).get("greeter");
    ClusterLoadAssignment cla = r.content(ClusterLoadAssignment.class);
    return cla.getPolicy().getDropOverloadsList().stream()
        .map(d -> d.getCategory() + " " + d.getDropPercentage().getNumerator()).toList();
  }

  @Test
  void aDropAndAFreezeOfEjectionsSurviveARestart() throws Exception {
    try (RegistryServer first = RegistryServer.start(dir, "{ leaseTtl: 1h }", "", "embedded")) {
      assertThat(post(first, "/api/v1/clusters/greeter/shed", "{\"percent\": 30, \"reason\": \"zone b is down\"}")
          .statusCode()).isEqualTo(202);
      assertThat(post(first, "/api/v1/freeze-ejections", "{\"reason\": \"incident 42\"}").statusCode())
          .isEqualTo(200);
      await().atMost(Duration.ofSeconds(10)).until(() -> servedDrops(first).equals(List.of("signalbox_operator 300000")));
    }

    try (RegistryServer second = RegistryServer.start(dir, "{ leaseTtl: 1h }", "", "embedded")) {
      await().atMost(Duration.ofSeconds(10)).until(() -> servedDrops(second).equals(List.of("signalbox_operator 300000")));
      JsonNode status = json(second.get("/api/v1/status"));
      assertThat(status.get("drops")).hasSize(1);
      assertThat(status.get("drops").get(0).get("reason").asText()).isEqualTo("zone b is down");
      assertThat(status.get("ejectionsFrozen").asBoolean()).isTrue();
      assertThat(status.get("ejectionFreeze").get("reason").asText()).isEqualTo("incident 42");

      // Lifted after the restart, it stays lifted: the new process owns the intent it read.
      assertThat(second.delete("/api/v1/clusters/greeter/shed").statusCode()).isEqualTo(200);
      await().atMost(Duration.ofSeconds(10)).until(() -> servedDrops(second).isEmpty());
    }
  }
}
