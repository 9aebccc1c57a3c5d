package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.config.TokenSettings;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.StoreSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One Signalbox (in this JVM, memory store, endpoint file, REST registry, three tokens) serving a
 * grpc-xds client that calls three real backends without pause, for a class that throws bad input
 * at it case after case. Each case runs as a {@link Round}: the published epoch and the traffic's
 * failures when it began, checked when it ends, so a case that changed anything fails by itself.
 */
final class SteadySignalbox implements AutoCloseable {

  static final String OPERATOR_TOKEN = "adversarial-operator";
  static final String VIEWER_TOKEN = "adversarial-viewer";
  static final String REGISTRANT_TOKEN = "adversarial-registrant";

  final Workspace ws;
  final Path endpointFile;
  final Path configFile;
  final String fileSource;
  private final Backends backends;
  private final int xdsPort;
  final SignalboxServer server;
  final Traffic traffic;
  /** With the operator token: every route answers it. */
  final Admin admin;

  private SteadySignalbox(Path dir) throws Exception {
    ws = new Workspace(dir);
    backends = Backends.start("b1", "b2", "b3");
    xdsPort = Workspace.freePort();
    endpointFile = ws.write("endpoints.yaml", validEndpoints());
    fileSource = "file:" + endpointFile;
    configFile = ws.write("signalbox.yaml", validConfig());
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(configFile);
    if (!(parsed instanceof Parsed.Ok<SignalboxConfig> ok)) {
      throw new IllegalStateException("the valid config is not: " + parsed);
    }
    server = SignalboxServer.start(configFile, ok.value(),
        new StoreSettings("memory", dir.resolve("data"), null, null), Clock.systemUTC());
    admin = new Admin(server.adminPort(), OPERATOR_TOKEN);
    traffic = new Traffic(GrpcXdsClient.bootstrap(xdsPort, "adversarial").open("greeter"));
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> traffic.calls(9).equals(Set.of("b1", "b2", "b3")));
    traffic.startCalling();
  }

  static SteadySignalbox start(Path dir) throws Exception {
    return new SteadySignalbox(dir);
  }

  int port(String backend) {
    return backends.port(backend);
  }

  /** The endpoint file every case starts from: the three backends, READY, zone a. */
  String validEndpoints() {
    return """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: %d, zone: a, weight: 1, priority: 0, state: READY }
            - { address: 127.0.0.1, port: %d, zone: a, weight: 1, priority: 0, state: READY }
            - { address: 127.0.0.1, port: %d, zone: a, weight: 1, priority: 0, state: READY }
        """.formatted(port("b1"), port("b2"), port("b3"));
  }

  /** The config file every case starts from; restart-only keys (ports, store, tokens) included. */
  String validConfig() {
    return """
        xds: { port: %d, address: 127.0.0.1 }
        admin:
          port: 0
          address: 127.0.0.1
          tokens:
            - { name: ops, role: operator, sha256: %s }
            - { name: dash, role: viewer, sha256: %s }
            - { name: agent, role: registrant, sha256: %s }
        store: { url: memory }
        sources:
          files: [ %s ]
          registry: { leaseTtl: 1h }
        reconcile: { debounce: 20ms, maxDelay: 200ms }
        rollout: { settle: 1s }
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
          - name: greeter
            lbPolicy: ROUND_ROBIN
            connectTimeout: 1s
        """.formatted(xdsPort, TokenSettings.sha256Hex(OPERATOR_TOKEN), TokenSettings.sha256Hex(VIEWER_TOKEN),
        TokenSettings.sha256Hex(REGISTRANT_TOKEN), endpointFile);
  }

  /**
   * A case begins, once traffic flows (a case before may have broken it): what must be the same
   * when it ends.
   */
  Round round(String name) {
    if (traffic.failures().size() != failuresSeen) {
      awaitTrafficFlowing();
      failuresSeen = traffic.failures().size();
    }
    return new Round(name, Instant.now(), admin.epoch(), traffic.failures().size(), traffic.succeeded());
  }

  /** Failed RPCs already blamed on a case: the next case starts once traffic flows again. */
  private int failuresSeen;

  /** Waits for five RPCs in a row to succeed. */
  void awaitTrafficFlowing() {
    long[] since = {traffic.failures().size(), traffic.succeeded()};
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> {
      int failed = traffic.failures().size();
      long succeeded = traffic.succeeded();
      if (failed != since[0]) {
        since[0] = failed;
        since[1] = succeeded;
        return false;
      }
      return succeeded >= since[1] + 5;
    });
  }

  /**
   * What one case must leave as it found it.
   *
   * @param since when the case began: refusals older than this belong to other cases
   */
  final class Round {
    final String name;
    final Instant since;
    final long epoch;
    private final int failures;
    private final long succeeded;

    private Round(String name, Instant since, long epoch, int failures, long succeeded) {
      this.name = name;
      this.since = since;
      this.epoch = epoch;
      this.failures = failures;
      this.succeeded = succeeded;
    }

    /**
     * Waits until the server reports a refusal (a rejection since the case began, a source
     * problem, or a held update) with one line holding every one of {@code parts}: the rule id
     * and the path or field, the stable part of the message.
     */
    void awaitRefusal(String... parts) {
      List<String> seen = new ArrayList<>();
      try {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(25)).until(() -> {
          seen.clear();
          seen.addAll(refusalLines(since));
          return seen.stream().anyMatch(line -> containsAll(line, parts));
        });
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        throw new AssertionError(name + ": no refusal with " + List.of(parts) + "; the server reported " + seen
            + "; epoch " + epoch + " -> " + admin.epoch(), e);
      }
    }

    /** The epoch published when the case began is still the newest; traffic went on without a failure. */
    void assertNothingChanged() {
      assertThat(admin.epoch()).as("%s: the published epoch", name).isEqualTo(epoch);
      assertTrafficUninterrupted();
    }

    void assertTrafficUninterrupted() {
      // At least one RPC completed since the case began (one starts every 20 ms): traffic moved on.
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
          .until(() -> traffic.succeeded() > succeeded + 1 || traffic.failures().size() > failures);
      List<String> all = traffic.failures();
      assertThat(all.subList(failures, all.size())).as("%s: RPCs that failed during the case", name).isEmpty();
    }
  }

  private static boolean containsAll(String line, String... parts) {
    for (String part : parts) {
      if (!line.contains(part)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Every line the server reports about refused input: rejections since {@code since} (cause and
   * each violation), each source that is not FRESH and its problems, held updates.
   */
  List<String> refusalLines(Instant since) {
    List<String> lines = new ArrayList<>();
    for (JsonNode rejection : admin.getJson("/api/v1/rejections?limit=20")) {
      if (Instant.parse(rejection.get("at").asText()).isBefore(since.minusMillis(5))) {
        continue;
      }
      String cause = rejection.path("cause").asText();
      lines.add(cause);
      for (JsonNode violation : rejection.path("violations")) {
        lines.add(cause + ": " + violation.asText());
      }
    }
    JsonNode status = admin.status();
    status.path("sources").fields().forEachRemaining(s -> {
      if (!"FRESH".equals(s.getValue().asText())) {
        lines.add(s.getKey() + " " + s.getValue().asText());
      }
    });
    status.path("sourceProblems").fields().forEachRemaining(s -> {
      for (JsonNode problem : s.getValue()) {
        lines.add(s.getKey() + ": " + problem.asText());
      }
    });
    for (JsonNode held : admin.getJson("/api/v1/held")) {
      lines.add("held: " + held);
    }
    return lines;
  }

  /** Waits until the endpoint file's source is FRESH again and serves the three backends. */
  void awaitEndpointsRestored() {
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).ignoreExceptions().until(() -> {
      JsonNode status = admin.status();
      if (!"FRESH".equals(status.path("sources").path(fileSource).asText())) {
        return false;
      }
      JsonNode endpoints = admin.getJson("/api/v1/clusters/greeter/endpoints");
      int ready = 0;
      for (JsonNode e : endpoints) {
        ready += e.toString().contains("READY") ? 1 : 0;
      }
      return ready == 3 && endpoints.size() == 3 && !status.path("pendingPublish").asBoolean();
    });
  }

  @Override
  public void close() throws Exception {
    try {
      traffic.close();
      assertThat(traffic.failures()).as("RPCs that failed while the class ran").isEmpty();
      assertThat(traffic.succeeded()).isPositive();
    } finally {
      server.close();
      backends.close();
    }
  }
}
