package io.signalbox.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.signalbox.controlplane.admin.AnsweringAdsClient;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.StoreSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The main config file edited under a running server with an xDS client holding its config: an
 * emptied file, a reload that removes most clusters, and restart-only settings changed or made
 * invalid. Each changes nothing the client holds unless it may.
 */
class ConfigReloadTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SETTINGS = """
      xds: { port: 0, address: 127.0.0.1 }
      admin: { port: 0, address: 127.0.0.1 }
      store: { url: memory }
      sources:
        files: [ ./endpoints.yaml ]
      reconcile: { debounce: 20ms, maxDelay: 200ms }
      """;

  @TempDir Path dir;
  SignalboxServer server;
  AnsweringAdsClient client;
  Path config;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** The greeter listener and route, and these clusters declared besides {@code greeter}. */
  private static String config(String settings, String... clusters) {
    StringBuilder yaml = new StringBuilder(settings).append("""
        listeners:
          - name: greeter
            apiListener: true
            routeConfig: greeter
        routeConfigs:
          - name: greeter
            virtualHosts:
              - name: greeter
                domains: [ "*" ]
                routes:
                  - match: { prefix: "" }
                    cluster: greeter
        clusters:
          - { name: greeter, connectTimeout: 1s }
        """);
    for (String c : clusters) {
      yaml.append("  - { name: ").append(c).append(", connectTimeout: 1s }\n");
    }
    return yaml.toString();
  }

  @BeforeEach
  void start() {
    write("endpoints.yaml", """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: 50001 }
        """);
    config = write("signalbox.yaml", config(SETTINGS, "billing", "search"));
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(config)).value();
    server = SignalboxServer.start(config, cfg, new StoreSettings("memory", dir.resolve("data"), null,
        null), Clock.systemUTC());
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > 0);
    client = new AnsweringAdsClient(server.xdsPort(), "node-1", "web");
    await().atMost(Duration.ofSeconds(10)).until(() -> client.accepted(XdsType.CLUSTER.typeUrl()) != null);
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    server.close();
  }

  @Test
  void aConfigFileTruncatedToZeroBytesIsRejectedAndTheClientKeepsItsClusters() {
    long epoch = server.reconciler().status().epoch();
    String held = client.accepted(XdsType.CLUSTER.typeUrl());

    writeInPlace("signalbox.yaml", "");

    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().lastRejection() != null);
    assertThat(server.reconciler().status().lastRejection().violations()).containsExactly(config
        + ": the config file is empty (only whitespace or comments); the last valid config stays in force "
        + "[config.empty]");
    server.reload();
    assertThat(status().get("epoch").asLong()).isEqualTo(epoch);
    assertThat(clusters()).containsExactly("billing", "greeter", "search");
    assertThat(client.accepted(XdsType.CLUSTER.typeUrl())).isEqualTo(held);
  }

  @Test
  void aCommentsOnlyConfigReloadedThroughTheApiIsRejected() {
    long epoch = server.reconciler().status().epoch();
    write("signalbox.yaml", "# emptied by a sync\n\n   \n---\n");

    assertThat(post("/api/v1/reload", "{}").statusCode()).isEqualTo(202);

    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().lastRejection() != null);
    assertThat(status().get("lastRejection").get("violations").get(0).asText()).endsWith("[config.empty]");
    assertThat(status().get("epoch").asLong()).isEqualTo(epoch);
  }

  @Test
  void aReloadRemovingTwoOfThreeClustersIsHeldUntilConfirmedThenApplied() {
    long epoch = server.reconciler().status().epoch();
    String held = client.accepted(XdsType.CLUSTER.typeUrl());

    write("signalbox.yaml", config(SETTINGS));
    server.reload();

    await().atMost(Duration.ofSeconds(10)).until(() -> status().get("held").size() == 1);
    JsonNode hold = status().get("held").get(0);
    assertThat(hold.path("cluster").isTextual()).isFalse();
    assertThat(hold.get("config").asText()).isEqualTo(config.toString());
    assertThat(hold.get("rule").asText()).isEqualTo("guard.config-removal");
    assertThat(hold.get("message").asText()).isEqualTo("config " + config + ": the reload removes 2 of 3 declared "
        + "clusters (billing, search), more than configRemovalPercent 50; the config in force keeps serving until "
        + "confirmed");
    assertThat(json(get("/api/v1/held")).get(0).get("rule").asText()).isEqualTo("guard.config-removal");
    assertThat(json(get("/api/v1/clusters/greeter/why")).findValuesAsText("message")).contains(
        hold.get("message").asText() + " [guard.config-removal]; held until confirmed (signalbox confirm --config)");
    assertThat(status().get("epoch").asLong()).isEqualTo(epoch);
    assertThat(client.accepted(XdsType.CLUSTER.typeUrl())).isEqualTo(held);

    Run confirm = cli("confirm", "--config", "--reason", "retiring billing and search");
    assertThat(confirm.exit()).as(confirm.err()).isZero();
    assertThat(confirm.out()).isEqualTo("confirmed the held config reload\n");

    await().atMost(Duration.ofSeconds(10)).until(() -> clusters().equals(List.of("greeter")));
    assertThat(status().get("held").size()).isZero();
    await().atMost(Duration.ofSeconds(10)).until(() -> !held.equals(client.accepted(XdsType.CLUSTER.typeUrl())));
    assertThat(json(get("/api/v1/audit?limit=5")).findValuesAsText("target")).contains("config");
  }

  @Test
  void aReloadRenamingTheOnlyListenerToNothingIsRefusedWithWhatValidateSaysNotHeld() {
    long epoch = server.reconciler().status().epoch();
    write("signalbox.yaml", config(SETTINGS, "billing", "search").replace("- name: greeter\n    apiListener",
        "- name: \"\"\n    apiListener"));
    server.reload();

    await().atMost(Duration.ofSeconds(10)).until(() -> !status().get("lastRejection").isNull());
    assertThat(status().get("held").size()).as("nothing waits for confirm").isZero();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine validate = Main.commandLine();
    validate.setOut(new PrintWriter(out, true));
    validate.setErr(new PrintWriter(err, true));
    assertThat(validate.execute("validate", "--config", config.toString())).isEqualTo(2);
    List<String> refused = new java.util.ArrayList<>();
    status().get("lastRejection").get("violations").forEach(v -> refused.add(v.asText()));
    assertThat(refused).isNotEmpty().containsExactlyElementsOf(err.toString().lines().toList());
    assertThat(status().get("epoch").asLong()).isEqualTo(epoch);
  }

  @Test
  void aReloadRemovingOneOfThreeClustersApplies() {
    write("signalbox.yaml", config(SETTINGS, "billing"));
    server.reload();

    await().atMost(Duration.ofSeconds(10)).until(() -> clusters().equals(List.of("billing", "greeter")));
    assertThat(status().get("held").size()).isZero();
    // Nothing else to report either: the settings are the running ones.
    assertThat(status().get("pendingRestart")).isNotNull().isEmpty();
  }

  @Test
  void aConfirmWithNothingHeldIs404() {
    HttpResponse<String> response = post("/api/v1/config/confirm", "{}");

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(json(response).get("message").asText()).isEqualTo("no config reload is held");
  }

  @Test
  void restartOnlySettingsChangedByAReloadAreReportedPerKeyAndTheRestApplies() {
    String settings = SETTINGS.replace("debounce: 20ms", "debounce: 50ms")
        .replace("files: [ ./endpoints.yaml ]", "files: [ ./endpoints.yaml, ./more.yaml ]");
    write("signalbox.yaml", config(settings, "billing", "search", "audit"));
    server.reload();

    await().atMost(Duration.ofSeconds(10)).until(() -> clusters().contains("audit"));
    JsonNode pending = status().get("pendingRestart");
    assertThat(pending.findValuesAsText("key")).containsExactly("reconcile.debounce", "sources.files");
    assertThat(pending.get(0).get("running").asText()).isEqualTo("20ms");
    assertThat(pending.get(0).get("configured").asText()).isEqualTo("50ms");
    assertThat(pending.get(1).get("configured").asText()).isEqualTo(
        List.of(dir.resolve("endpoints.yaml"), dir.resolve("more.yaml")).toString());

    Run status = cli("status");
    assertThat(status.out()).contains("restart needed").contains("reconcile.debounce: takes effect at restart "
        + "(running 20ms, configured 50ms)");

    write("signalbox.yaml", config(SETTINGS, "billing", "search", "audit"));
    server.reload();
    await().atMost(Duration.ofSeconds(10)).until(() -> status().get("pendingRestart").isEmpty());
  }

  @Test
  void invalidRestartOnlyValuesAreRejectedAtReloadLikeAnyOther() {
    long epoch = server.reconciler().status().epoch();
    String settings = SETTINGS.replace("xds: { port: 0, address: 127.0.0.1 }",
            "xds: { port: 70000, address: 127.0.0.1, limits: { maxRequestBytes: 10 } }")
        .replace("store: { url: memory }", "store: { url: ftp://example.org/db }")
        .replace("files: [ ./endpoints.yaml ]", "files: [ ./endpoints.yaml ]\n  registry: { leaseTtl: 0 }")
        .replace("admin: { port: 0, address: 127.0.0.1 }",
            "admin: { port: 0, address: 127.0.0.1, tokens: [ { name: ops, role: operator, sha256: abc } ] }");
    write("signalbox.yaml", config(settings, "billing", "search", "audit"));

    server.reload();

    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().lastRejection() != null);
    assertThat(server.reconciler().status().lastRejection().violations()).containsExactly(
        config + ": xds.limits.maxRequestBytes: must be at least 65536, was 10 [server]",
        config + ": xds.port: must be from 1 to 65535 (0 picks a free port), was 70000 [server]",
        config + ": admin.tokens[0].sha256: must be 64 hexadecimal characters (the SHA-256 of the token), was 3 "
            + "characters [server]",
        config + ": store.url: must be 'embedded', 'memory' or a jdbc:postgresql:// URL, was 'ftp://example.org/db' "
            + "[server]",
        config + ": sources.registry.leaseTtl: must be longer than 0, was 0ms [server]");
    assertThat(clusters()).doesNotContain("audit");
    assertThat(status().get("epoch").asLong()).isEqualTo(epoch);
  }

  private List<String> clusters() {
    return server.reconciler().published().resources(XdsType.CLUSTER).byName().keySet().stream().sorted()
        .collect(Collectors.toList());
  }

  private JsonNode status() {
    return json(get("/api/v1/status"));
  }

  private record Run(int exit, String out, String err) {}

  private Run cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args),
        java.util.stream.Stream.of("--server", "http://127.0.0.1:" + server.adminPort())).toArray(String[]::new);
    int exit = cli.execute(all);
    return new Run(exit, out.toString(), err.toString());
  }

  private HttpResponse<String> get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  private HttpResponse<String> post(String path, String body) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.adminPort() + path);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return http.send(request.timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode json(HttpResponse<String> response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + response.body(), e);
    }
  }

  private Path write(String name, String content) {
    try {
      Path tmp = Files.createTempFile(dir, "." + name, ".tmp");
      Files.writeString(tmp, content);
      return Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Truncated in place, as an editor or {@code kubectl cp} leaves a file. */
  private void writeInPlace(String name, String content) {
    try {
      Files.writeString(dir.resolve(name), content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
