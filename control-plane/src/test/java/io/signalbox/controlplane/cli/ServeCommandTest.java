package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ServeCommandTest {

  @TempDir Path dir;

  private record Run(int exit, String err) {}

  private Run serve(Path config, String... more) {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new io.signalbox.controlplane.Main());
    cli.setErr(new PrintWriter(err));
    String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("serve", "--config", config.toString()),
        java.util.stream.Stream.of(more)).toArray(String[]::new);
    int exit = cli.execute(args);
    return new Run(exit, err.toString());
  }

  @Test
  void refusesADatabaseUrlOfAnotherDriverAsTheConfigsStoreUrlIsRefused() throws Exception {
    Path config = Files.writeString(dir.resolve("signalbox.yaml"), "store: { url: memory }\n");

    Run run = serve(config, "--database-url", "jdbc:mysql://db/signalbox");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err().lines()).containsExactly(
        "signalbox: " + config + " is invalid (1 problem):",
        config + ": --database-url: must be 'embedded', 'memory' or a jdbc:postgresql:// URL, "
            + "was 'jdbc:mysql://db/signalbox' [server]");
  }

  @Test
  void refusesAConfigWithUnknownKeysWithExitCode2AndEveryProblemOnItsOwnLine() throws Exception {
    Path config = Files.writeString(dir.resolve("signalbox.yaml"), """
        xds: { prot: 18000 }
        clusters:
          - name: greeter
            conectTimeout: 1s
        """);

    Run run = serve(config);

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err().lines()).contains(
        "signalbox: " + config + " is invalid (2 problems):",
        config + ": line 1, column 8: xds.prot: unknown key 'prot' (did you mean 'port'?) [parse]",
        config + ": line 4, column 5: clusters[0].conectTimeout: unknown key 'conectTimeout' (did you mean "
            + "'connectTimeout'?) [parse]");
  }

  @Test
  void refusesAConfigThatBreaksValidationRulesWithExitCode2() throws Exception {
    Files.writeString(dir.resolve("endpoints.yaml"), """
        clusters:
          greeter:
            - { address: 10.0.0.1, port: 70000 }
        """);
    Path config = Files.writeString(dir.resolve("signalbox.yaml"), """
        store: { url: memory }
        sources: { files: [ ./endpoints.yaml ] }
        listeners:
          - { name: greeter, apiListener: true, routeConfig: missing }
        """);

    Run run = serve(config);

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("listener 'greeter': routeConfig").contains("missing")
        .contains("port").contains("70000");
  }

  @Test
  void refusesSettingsItCannotStartOnWithExitCode2() throws Exception {
    Path config = Files.writeString(dir.resolve("signalbox.yaml"), """
        xds: { port: 70000 }
        store: { url: memory }
        sources: { registry: { leaseTtl: 0 } }
        """);

    Run run = serve(config);

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err().lines()).containsExactly(
        "signalbox: " + config + " is invalid (2 problems):",
        config + ": xds.port: must be from 1 to 65535 (0 picks a free port), was 70000 [server]",
        config + ": sources.registry.leaseTtl: must be longer than 0, was 0ms [server]");
  }

  // Bounded: before config.empty, an empty file started a server on every default and never returned.
  @Test
  @org.junit.jupiter.api.Timeout(120)
  void refusesAnEmptyConfigFileWithExitCode2() throws Exception {
    Path config = Files.writeString(dir.resolve("signalbox.yaml"), "\n   \n# all commented out\n");

    Run run = serve(config);

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err().lines()).containsExactly(
        "signalbox: " + config + " is invalid (1 problem):",
        config + ": the config file is empty (only whitespace or comments); the last valid config stays in force "
            + "[config.empty]");
  }
}
