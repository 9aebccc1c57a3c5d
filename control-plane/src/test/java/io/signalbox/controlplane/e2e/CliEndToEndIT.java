package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.config.TokenSettings;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's exit-code contract (DESIGN §6) with both sides as processes of the built jar: 0, 1
 * with one stderr line (the server's ejection cap, a viewer token, an unreachable server), 2 for
 * usage errors, 3 for a drain that does not finish in time.
 */
class CliEndToEndIT {

  static final String OPERATOR_TOKEN = "ops-secret";
  static final String VIEWER_TOKEN = "dash-secret";

  @TempDir static Path dir;
  static int adminPort;
  static SignalboxProcess server;
  static Map<String, String> operator;

  @BeforeAll
  static void start() {
    Workspace ws = new Workspace(dir);
    adminPort = Workspace.freePort();
    operator = Map.of("SIGNALBOX_SERVER", "http://127.0.0.1:" + adminPort, "SIGNALBOX_TOKEN", OPERATOR_TOKEN);
    ws.write("endpoints.yaml", """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: 50001, zone: a }
            - { address: 127.0.0.1, port: 50002, zone: a }
            - { address: 127.0.0.1, port: 50003, zone: b }
        """);
    Path config = ws.write("signalbox.yaml", """
        xds: { port: %d, address: 127.0.0.1 }
        admin:
          address: 127.0.0.1
          port: %d
          tokens:
            - { name: ops, role: operator, sha256: %s }
            - { name: dash, role: viewer, sha256: %s }
        store: { url: memory }
        sources:
          files: [ %s ]
        listeners:
          - { name: greeter, apiListener: true, routeConfig: greeter }
        routeConfigs:
          - name: greeter
            virtualHosts:
              - name: greeter
                domains: [ "*" ]
                routes:
                  - match: { prefix: "" }
                    cluster: greeter
        clusters:
          - { name: greeter, lbPolicy: ROUND_ROBIN, connectTimeout: 1s, maxEjectionPercent: 40 }
        """.formatted(Workspace.freePort(), adminPort, TokenSettings.sha256Hex(OPERATOR_TOKEN),
        TokenSettings.sha256Hex(VIEWER_TOKEN), dir.resolve("endpoints.yaml")));
    server = SignalboxProcess.start(config, dir.resolve("data"), dir.resolve("signalbox.log"));
    CliProcess.awaitReady(adminPort, server);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static CliProcess.Result cli(Map<String, String> env, String... args) {
    return CliProcess.run(dir, env, args);
  }

  @Test
  void theSecondEjectionPastTheCapFailsWithTheServersMessage() {
    CliProcess.Result first = cli(operator, "eject", "greeter", "127.0.0.1:50001", "--reason", "5xx burst");
    CliProcess.Result second = cli(operator, "eject", "greeter", "127.0.0.1:50002");

    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out()).isEqualTo("ejected greeter/127.0.0.1:50001 for 30s\n");
    assertThat(second.exit()).isEqualTo(1);
    assertThat(second.out()).isEmpty();
    assertThat(second.err()).isEqualTo("signalbox: ejecting 127.0.0.1:50002 would eject 2 of 3 endpoints of cluster "
        + "'greeter' (66%), more than maxEjectionPercent 40\n");
  }

  @Test
  void statusWithTheServerAndTokenFromTheEnvironment() {
    CliProcess.Result status = cli(operator, "status");

    assertThat(status.exit()).as(status.err()).isZero();
    assertThat(status.outLines()).anyMatch(line -> line.matches("epoch +[1-9]\\d*"));
  }

  @Test
  void aViewerTokenIsForbiddenToDrain() {
    CliProcess.Result drain = cli(Map.of("SIGNALBOX_TOKEN", VIEWER_TOKEN), "drain", "greeter", "127.0.0.1:50003",
        "--server", "http://127.0.0.1:" + adminPort);

    assertThat(drain.exit()).isEqualTo(1);
    assertThat(drain.err()).isEqualTo("signalbox: forbidden: this route needs the operator role; token 'dash' has "
        + "viewer\n");
  }

  @Test
  void anUnreachableServerExitsOne() {
    int closed = Workspace.freePort();
    CliProcess.Result status = cli(Map.of(), "status", "--server", "http://127.0.0.1:" + closed);

    assertThat(status.exit()).isEqualTo(1);
    assertThat(status.err()).isEqualTo("signalbox: cannot reach http://127.0.0.1:" + closed + " (connection refused)\n");
  }

  @Test
  void aBadEndpointIsAUsageError() {
    CliProcess.Result drain = cli(operator, "drain", "greeter", "127.0.0.1");

    assertThat(drain.exit()).isEqualTo(2);
    assertThat(drain.err()).startsWith("Invalid value for positional parameter at index 1 (ADDRESS:PORT): "
        + "expected address:port (IPv6 as [::1]:8080), was '127.0.0.1'\n");
  }

  @Test
  void aDrainThatOutlastsTheTimeoutExitsThree() {
    CliProcess.Result drain = cli(operator, "drain", "greeter", "127.0.0.1:50003", "--deadline", "1h", "--wait",
        "--timeout", "1s");

    assertThat(drain.exit()).as(drain.out() + drain.err()).isEqualTo(3);
    assertThat(drain.err().lines()).singleElement().asString()
        .startsWith("signalbox: timed out after 1s waiting for greeter/127.0.0.1:50003 to be safe to remove: ");
    assertThat(cli(operator, "undrain", "greeter", "127.0.0.1:50003").exit()).isZero();
  }

  @Test
  void completionPrintsABashScript() {
    CliProcess.Result completion = cli(Map.of(), "completion");

    assertThat(completion.exit()).isZero();
    assertThat(completion.out()).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_signalbox");
  }
}
