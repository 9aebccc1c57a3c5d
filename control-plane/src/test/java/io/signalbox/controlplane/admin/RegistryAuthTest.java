package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.config.TokenSettings;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who may register: registrants and operators, not viewers; origins name the registrant. */
class RegistryAuthTest {

  static final String VIEWER = "viewer-secret";
  static final String OPERATOR = "operator-secret";
  static final String REGISTRANT = "registrant-secret";

  @TempDir static Path dir;
  static RegistryServer sb;

  @BeforeAll
  static void start() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }", """
        tokens:
          - { name: dash, role: viewer, sha256: %s }
          - { name: ops, role: operator, sha256: %s }
          - { name: pods, role: registrant, sha256: %s }
        """.formatted(TokenSettings.sha256Hex(VIEWER), TokenSettings.sha256Hex(OPERATOR),
        TokenSettings.sha256Hex(REGISTRANT)), "memory");
  }

  @AfterAll
  static void stop() {
    sb.close();
  }

  private static void assertError(HttpResponse<String> response, int status, String code, String message) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    JsonNode body = json(response);
    assertThat(body.get("code").asText()).isEqualTo(code);
    assertThat(body.get("message").asText()).isEqualTo(message);
  }

  private static String originOf(String cluster, String endpoint) {
    for (JsonNode e : json(sb.get("/api/v1/clusters/" + cluster + "/endpoints", VIEWER))) {
      if (e.get("endpoint").asText().equals(endpoint)) {
        return e.get("origin").asText();
      }
    }
    return null;
  }

  @Test
  void aViewerMayNotRegisterOrDeregister() {
    String path = "/api/v1/registry/viewers/endpoints/10.0.0.1:8080";
    assertError(sb.put(path, null, VIEWER), 403, "forbidden",
        "this route needs the registrant role; token 'dash' has viewer");
    assertError(sb.delete(path, VIEWER), 403, "forbidden",
        "this route needs the registrant role; token 'dash' has viewer");
    assertError(sb.put(path, null, null), 401, "unauthorized",
        "this route needs a bearer token (Authorization: Bearer <token>)");
    assertThat(json(sb.get("/api/v1/registry", VIEWER))).noneMatch(l -> l.get("cluster").asText().equals("viewers"));
  }

  @Test
  void aRegistrantRegistersAndDeregistersAndIsNamedInTheOrigin() {
    String path = "/api/v1/registry/pods/endpoints/10.0.0.1:8080";

    assertThat(sb.put(path, "{\"zone\": \"a\"}", REGISTRANT).statusCode()).isEqualTo(201);
    assertThat(sb.put(path, "{\"zone\": \"a\"}", REGISTRANT).statusCode()).isEqualTo(200);

    await().atMost(Duration.ofSeconds(10))
        .until(() -> "registry:pods/10.0.0.1:8080 by pods".equals(originOf("pods", "10.0.0.1:8080")));
    assertError(sb.get("/api/v1/registry", REGISTRANT), 403, "forbidden",
        "this route needs the viewer role; token 'pods' has registrant");
    assertThat(json(sb.get("/api/v1/registry", VIEWER)))
        .anySatisfy(l -> assertThat(l.get("registeredBy").asText()).isEqualTo("pods"));
    assertThat(sb.delete(path, REGISTRANT).statusCode()).isEqualTo(200);
  }

  @Test
  void anOperatorMayRegisterToo() {
    assertThat(sb.put("/api/v1/registry/ops/endpoints/10.0.0.1:8080", null, OPERATOR).statusCode()).isEqualTo(201);

    await().atMost(Duration.ofSeconds(10))
        .until(() -> "registry:ops/10.0.0.1:8080 by ops".equals(originOf("ops", "10.0.0.1:8080")));
  }
}
