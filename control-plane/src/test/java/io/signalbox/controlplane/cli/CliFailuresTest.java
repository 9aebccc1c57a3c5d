package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.config.TokenSettings;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How each command fails: one line on stderr and exit 1 for what the server or the network says,
 * exit 2 for what picocli refuses before sending anything (DESIGN §6).
 */
class CliFailuresTest {

  static final String VIEWER = "viewer-secret";
  static final String OPERATOR = "operator-secret";

  @TempDir static Path dir;
  static RunningSignalbox guarded;

  @BeforeAll
  static void start() {
    guarded = RunningSignalbox.start(dir, 2, """
        tokens:
          - { name: dash, role: viewer, sha256: %s }
          - { name: ops, role: operator, sha256: %s }
        """.formatted(TokenSettings.sha256Hex(VIEWER), TokenSettings.sha256Hex(OPERATOR)), "");
  }

  @AfterAll
  static void stop() {
    guarded.close();
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static void assertFails(Cli.Run run, String line) {
    assertThat(run.exit()).as(run.err()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo(line + "\n");
  }

  @Test
  void anUnreachableServerIsOneLine() throws IOException {
    int port = closedPort();

    assertFails(Cli.run("status", "--server", "http://127.0.0.1:" + port),
        "signalbox: cannot reach http://127.0.0.1:" + port + " (connection refused)");
  }

  @Test
  void noTokenIsUnauthorizedAndSaysHowToPassOne() {
    assertFails(Cli.against(guarded, "status"), "signalbox: unauthorized: this route needs a bearer token "
        + "(Authorization: Bearer <token>); pass --token or set SIGNALBOX_TOKEN");
  }

  @Test
  void anUnknownTokenIsUnauthorized() {
    assertFails(Cli.against(guarded, "epochs", "--token", "guess"), "signalbox: unauthorized: unknown token");
  }

  @Test
  void aViewerTokenCannotDrainAndIsToldWhichRoleItNeeds() {
    assertFails(Cli.against(guarded, "drain", "greeter", "127.0.0.1:50001", "--token", VIEWER),
        "signalbox: forbidden: this route needs the operator role; token 'dash' has viewer");
  }

  @Test
  void theRightTokensRead() {
    assertThat(Cli.against(guarded, "status", "--token", VIEWER).exit()).isZero();
    Cli.Run drain = Cli.against(guarded, "drain", "greeter", "127.0.0.1:50001", "--token", OPERATOR);
    assertThat(drain.exit()).as(drain.err()).isZero();
    assertThat(Cli.against(guarded, "undrain", "greeter", "127.0.0.1:50001", "--token", OPERATOR).exit()).isZero();
  }

  @Test
  void anUnknownClusterOrEndpointNamesTheClosest() {
    assertFails(Cli.against(guarded, "endpoints", "gretter", "--token", VIEWER),
        "signalbox: no cluster 'gretter'; did you mean 'greeter'?");
    assertFails(Cli.against(guarded, "drain", "gretter", "127.0.0.1:50001", "--token", OPERATOR),
        "signalbox: no cluster 'gretter'; did you mean 'greeter'?");
    assertFails(Cli.against(guarded, "undrain", "greeter", "127.0.0.1:50011", "--token", OPERATOR),
        "signalbox: cluster 'greeter' has no endpoint 127.0.0.1:50011; did you mean '127.0.0.1:50001'?");
    assertFails(Cli.against(guarded, "eject", "greeter", "127.0.0.1:50021", "--token", OPERATOR),
        "signalbox: cluster 'greeter' has no endpoint 127.0.0.1:50021; did you mean '127.0.0.1:50001'?");
  }

  @Test
  void undrainingAnEndpointNoOneDrainedFails() {
    assertFails(Cli.against(guarded, "undrain", "greeter", "127.0.0.1:50002", "--token", OPERATOR),
        "signalbox: greeter/127.0.0.1:50002 is not being drained by an operator");
  }

  @Test
  void aMalformedEndpointIsAUsageError() {
    Cli.Run run = Cli.run("drain", "greeter", "10.0.0.1");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.errLines()).first().isEqualTo("Invalid value for positional parameter at index 1 (ADDRESS:PORT): "
        + "expected address:port (IPv6 as [::1]:8080), was '10.0.0.1'");
  }

  /** The address follows the rule endpoints in the config follow (EndpointRules), checked before sending. */
  @ParameterizedTest(name = "{0} greeter {1}")
  @CsvSource({
      "drain, a_b:80, a_b",
      "undrain, a_b:80, a_b",
      "undrain, 127.0.0.262:50051, 127.0.0.262",
      "eject, 010.0.0.1:80, 010.0.0.1",
      "why, host..local:80, host..local",
      "why, '[zz::1]:80', zz::1"})
  void anEndpointWhoseAddressBreaksTheEndpointRuleIsAUsageError(String command, String endpoint, String address) {
    Cli.Run run = Cli.run(command, "greeter", endpoint);

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines()).first().isEqualTo("Invalid value for positional parameter at index 1 (ADDRESS:PORT): "
        + "the address must be an IPv4 address, IPv6 address or DNS name, was '" + address + "'");
  }

  @Test
  void anIpv6EndpointWithoutBracketsIsAUsageError() {
    assertThat(Cli.run("eject", "greeter", "::1:8080").exit()).isEqualTo(2);
    assertThat(Cli.run("undrain", "greeter", "127.0.0.1:70000").exit()).isEqualTo(2);
  }

  @Test
  void usageErrorsExitTwo() {
    assertThat(Cli.run("status", "--bogus").exit()).isEqualTo(2);
    assertThat(Cli.run("endpoints").errLines()).first().isEqualTo("Missing required parameter: 'CLUSTER'");
    assertThat(Cli.run("endpoints").exit()).isEqualTo(2);
    assertThat(Cli.run("epochs", "--limit", "ten").exit()).isEqualTo(2);
    assertThat(Cli.run("status", "--output", "xml").exit()).isEqualTo(2);
    assertThat(Cli.run("status", "--server", "127.0.0.1:8080").errLines()).first()
        .isEqualTo("Invalid value for option '--server': expected http://host:port, was '127.0.0.1:8080'");
    assertThat(Cli.run("drain", "greeter", "127.0.0.1:1", "--deadline", "soon").errLines()).first()
        .isEqualTo("Invalid value for option '--deadline': expected a duration like 30s, 5m or 1h, was 'soon'");
    assertThat(Cli.run("nonsense").exit()).isEqualTo(2);
  }

  @Test
  void theServersLimitCheckIsOneLine() {
    assertFails(Cli.against(guarded, "epochs", "--limit", "0", "--token", VIEWER),
        "signalbox: limit must be between 1 and 1000, was 0");
  }

  @Test
  void completionPrintsABashScriptForEveryCommand() {
    Cli.Run run = Cli.run("completion");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_signalbox")
        .contains("drain").contains("undrain").contains("--deadline").contains("--server");
  }
}
