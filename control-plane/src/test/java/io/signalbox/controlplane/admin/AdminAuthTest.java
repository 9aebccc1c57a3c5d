package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.config.TokenSettings;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bearer tokens and roles on a guarded admin server with {@code openMetrics: false}. */
class AdminAuthTest {

  static final String VIEWER = "viewer-secret";
  static final String OPERATOR = "operator-secret";
  static final String REGISTRANT = "registrant-secret";

  @TempDir static Path dir;
  static RunningSignalbox sb;

  @BeforeAll
  static void start() {
    sb = RunningSignalbox.start(dir, """
        port: 0
        openMetrics: false
        tokens:
          - { name: dash, role: viewer, sha256: %s }
          - { name: ops, role: operator, sha256: %s }
          - { name: pods, role: registrant, sha256: %s }
        """.formatted(TokenSettings.sha256Hex(VIEWER), TokenSettings.sha256Hex(OPERATOR).toUpperCase(),
        TokenSettings.sha256Hex(REGISTRANT)).strip());
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

  @Test
  void aRequestWithoutATokenIs401WithAChallenge() {
    HttpResponse<String> response = sb.get("/api/v1/status");
    assertError(response, 401, "unauthorized", "this route needs a bearer token (Authorization: Bearer <token>)");
    assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"signalbox\"");
  }

  @Test
  void anUnknownTokenIs401() {
    HttpResponse<String> response = sb.get("/api/v1/status", "guess");
    assertError(response, 401, "unauthorized", "unknown token");
    assertThat(response.headers().firstValue("WWW-Authenticate")).isPresent();
  }

  @Test
  void viewerAndOperatorRead() {
    for (String path : new String[] {"/api/v1/status", "/api/v1/clients", "/api/v1/clients/summary",
        "/api/v1/epochs", "/api/v1/epochs/1", "/api/v1/rejections", "/api/v1/audit"}) {
      assertThat(sb.get(path, VIEWER).statusCode()).as(path).isEqualTo(200);
      assertThat(sb.get(path, OPERATOR).statusCode()).as(path).isEqualTo(200);
    }
  }

  @Test
  void aRegistrantMayNotRead() {
    assertError(sb.get("/api/v1/status", REGISTRANT), 403, "forbidden",
        "this route needs the viewer role; token 'pods' has registrant");
  }

  @Test
  void aViewerMayPlanWhichChangesNothingAndARegistrantMayNot() {
    String plan = "{\"endpointFiles\": {\"endpoints.yaml\": \"clusters: {}\\n\"}}";
    HttpResponse<String> viewer = sb.post("/api/v1/plan", plan, VIEWER);
    assertThat(viewer.statusCode()).as(viewer.body()).isEqualTo(200);
    // The one endpoint of greeter gone: valid, held by the mass-removal guard.
    assertThat(json(viewer).get("exitCode").asInt()).as(viewer.body()).isEqualTo(4);
    assertThat(json(viewer).get("holds").findValuesAsText("rule")).as(viewer.body()).containsExactly("guard.mass-removal");
    assertError(sb.post("/api/v1/plan", plan, REGISTRANT), 403, "forbidden",
        "this route needs the viewer role; token 'pods' has registrant");
    assertThat(json(sb.get("/api/v1/audit?limit=5", VIEWER)).findValuesAsText("action")).doesNotContain("plan");
  }

  @Test
  void aViewerMayNotWrite() {
    assertError(sb.post("/api/v1/reload", "", VIEWER), 403, "forbidden",
        "this route needs the operator role; token 'dash' has viewer");
  }

  @Test
  void anOperatorsWriteIsAuditedUnderTheTokensName() {
    HttpResponse<String> response = sb.post("/api/v1/reload", "{\"reason\":\"ticket 42\"}", OPERATOR);
    assertThat(response.statusCode()).isEqualTo(202);
    JsonNode entry = json(sb.get("/api/v1/audit?limit=1", VIEWER)).get(0);
    assertThat(entry.get("actor").asText()).isEqualTo("ops");
    assertThat(entry.get("action").asText()).isEqualTo("reload");
    assertThat(entry.get("reason").asText()).isEqualTo("ticket 42");
  }

  @Test
  void closedMetricsNeedAViewer() {
    assertError(sb.get("/metrics"), 401, "unauthorized",
        "this route needs a bearer token (Authorization: Bearer <token>)");
    assertError(sb.get("/metrics", REGISTRANT), 403, "forbidden",
        "this route needs the viewer role; token 'pods' has registrant");
    assertThat(sb.get("/metrics", VIEWER).statusCode()).isEqualTo(200);
  }

  @Test
  void healthAndTheDashboardFilesStayOpen() {
    assertThat(sb.get("/healthz").statusCode()).isEqualTo(200);
    assertThat(sb.get("/readyz").statusCode()).isEqualTo(200);
    assertThat(sb.get("/").statusCode()).isEqualTo(200);
    assertThat(sb.get("/dashboard/app.js").statusCode()).isEqualTo(200);
  }

  @Test
  void unknownRoutesStay404ForAnyone() {
    assertError(sb.get("/api/v1/nothing"), 404, "not_found", "no route GET /api/v1/nothing");
  }

  @Test
  void whoamiTellsTheDashboardWhetherTheTokenMayOperate() {
    JsonNode viewer = json(sb.get("/api/v1/whoami", VIEWER));
    JsonNode operator = json(sb.get("/api/v1/whoami", OPERATOR));

    assertThat(viewer.get("name").asText()).isEqualTo("dash");
    assertThat(viewer.get("role").asText()).isEqualTo("viewer");
    assertThat(viewer.get("canOperate").asBoolean()).isFalse();
    assertThat(operator.get("name").asText()).isEqualTo("ops");
    assertThat(operator.get("role").asText()).isEqualTo("operator");
    assertThat(operator.get("canOperate").asBoolean()).isTrue();
    assertError(sb.get("/api/v1/whoami", REGISTRANT), 403, "forbidden",
        "this route needs the viewer role; token 'pods' has registrant");
  }
}
