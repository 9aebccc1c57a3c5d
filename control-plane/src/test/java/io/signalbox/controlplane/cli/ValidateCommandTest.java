package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code signalbox validate --config FILE}: the server's own parsing, rules, translation and Envoy
 * checks, offline: no server, no database, no data directory. Exit 0 valid, 2 invalid with every
 * problem on its own line on stderr.
 */
class ValidateCommandTest {

  @TempDir Path dir;

  private Path config(String routeDomain, String endpoints) throws IOException {
    Files.writeString(dir.resolve("endpoints.yaml"), endpoints);
    return Files.writeString(dir.resolve("signalbox.yaml"), """
        store: { url: embedded, dataDir: ./data }
        sources: { files: [ ./endpoints.yaml ] }
        listeners:
          - { name: greeter, apiListener: true, routeConfig: greeter }
        routeConfigs:
          - name: greeter
            virtualHosts:
              - name: greeter
                domains: [ "%s" ]
                routes:
                  - match: { prefix: "" }
                    cluster: greeter
        clusters:
          - { name: greeter, lbPolicy: ROUND_ROBIN, connectTimeout: 1s }
        """.formatted(routeDomain));
  }

  private static final String TWO_ENDPOINTS = """
      clusters:
        greeter:
          - { address: 10.0.0.1, port: 8080, zone: a }
          - { address: 10.0.0.2, port: 8080, zone: b }
      """;

  @Test
  void aValidConfigExitsZeroWithWhatItHoldsAndTouchesNoDataDirectory() throws Exception {
    Path config = config("*", TWO_ENDPOINTS);

    Cli.Run run = Cli.run("validate", "--config", config.toString());

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.outLines()).containsExactly(config + " is valid: 1 listener, 1 route config, 1 declared cluster, "
        + "2 endpoints in 1 endpoint file");
    assertThat(dir.resolve("data")).doesNotExist();
  }

  @Test
  void unknownKeysExitTwoWithEveryProblemOnItsOwnLine() throws Exception {
    Path config = Files.writeString(dir.resolve("signalbox.yaml"), """
        xds: { prot: 18000 }
        clusters:
          - name: greeter
            conectTimeout: 1s
        """);

    Cli.Run run = Cli.run("validate", "--config", config.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines()).containsExactly(
        config + ": line 1, column 8: xds.prot: unknown key 'prot' (did you mean 'port'?) [parse]",
        config + ": line 4, column 5: clusters[0].conectTimeout: unknown key 'conectTimeout' (did you mean "
            + "'connectTimeout'?) [parse]");
  }

  @Test
  void brokenRulesInTheConfigAndTheEndpointFileAreAllReported() throws Exception {
    Path config = config("*", """
        clusters:
          greeter:
            - { address: 10.0.0.1, port: 70000 }
            - { address: 10.0.0.1, port: 70000 }
        """);

    Cli.Run run = Cli.run("validate", "--config", config.toString());

    String file = "file:" + dir.resolve("endpoints.yaml") + ": endpoints of cluster 'greeter'";
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines()).containsExactly(
        file + "[0] (10.0.0.1:70000): port: must be <= 65535, was 70000 [range]",
        file + "[1] (10.0.0.1:70000): port: must be <= 65535, was 70000 [range]",
        file + "[1] (10.0.0.1:70000): duplicate endpoint 10.0.0.1:70000 (also at [0]) [duplicate.endpoint]");
  }

  @Test
  void aMissingEndpointFileIsAProblem() throws Exception {
    Path config = config("*", TWO_ENDPOINTS);
    Files.delete(dir.resolve("endpoints.yaml"));

    Cli.Run run = Cli.run("validate", "--config", config.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.errLines()).containsExactly(dir.resolve("endpoints.yaml") + ": endpoint file does not exist "
        + "[source.missing]");
  }

  @Test
  void whatOnlyEnvoysOwnRulesRefuseIsFoundByTranslatingAsTheServerWould() throws Exception {
    // The model's rules accept any domain; Envoy's protoc-gen-validate rules refuse a line break.
    Path config = config("bad\\nhost", TWO_ENDPOINTS);

    Cli.Run run = Cli.run("validate", "--config", config.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.errLines()).containsExactly("route config 'greeter': virtual_hosts[0].domains[0]: must be an HTTP "
        + "header value, was 'bad\\nhost' [envoy.pgv]");
  }

  @Test
  void anEmptyConfigFileIsInvalidNotNoResources() throws Exception {
    Path config = Files.writeString(dir.resolve("signalbox.yaml"), "# nothing here yet\n\n");

    Cli.Run run = Cli.run("validate", "--config", config.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.errLines()).containsExactly(config + ": the config file is empty (only whitespace or comments); "
        + "the last valid config stays in force [config.empty]");
  }

  @Test
  void settingsThatTakeEffectOnlyAtRestartAreCheckedAsAReloadChecksThem() throws Exception {
    Path config = config("*", TWO_ENDPOINTS);
    Files.writeString(config, Files.readString(config).replace("store: { url: embedded, dataDir: ./data }",
        "store: { url: embedded, dataDir: ./data, retainEpochs: 0, history: { retain: 0, maxEvents: 0 } }\n"
            + "xds: { port: 70000 }\n"
            + "ha: { leaseDuration: 1s, renewInterval: 2s }"));

    Cli.Run run = Cli.run("validate", "--config", config.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.errLines()).containsExactly(
        config + ": xds.port: must be from 1 to 65535 (0 picks a free port), was 70000 [server]",
        config + ": store.retainEpochs: must be at least 1, was 0 [server]",
        config + ": store.history.retain: must be longer than 0, was 0ms [server]",
        config + ": store.history.maxEvents: must be at least 1, was 0 [server]",
        config + ": ha.renewInterval: must be shorter than ha.leaseDuration (1s) or the leader loses its lease "
            + "between renewals, was 2s [server]");
  }

  @Test
  void aConfigFileThatDoesNotExistIsAProblemToo() {
    Path missing = dir.resolve("nope.yaml");

    Cli.Run run = Cli.run("validate", "--config", missing.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString()
        .startsWith(missing + ": cannot read the config file: java.nio.file.NoSuchFileException");
  }

  @Test
  void refusesWhatTheFileSourceRefusesAndNeverReadsANonRegularFile() throws Exception {
    Path config = config("*", TWO_ENDPOINTS.replace("10.0.0.2, port: 8080", "10.0.0.1, port: 8080"));

    Cli.Run duplicate = Cli.run("validate", "--config", config.toString());

    assertThat(duplicate.exit()).isEqualTo(2);
    assertThat(duplicate.err()).contains("duplicate endpoint 10.0.0.1:8080 (also at [0]) [duplicate.endpoint]");
    // A directory (as /dev/zero or a FIFO would) is refused by type, before anything is opened.
    Files.delete(dir.resolve("endpoints.yaml"));
    Files.createDirectory(dir.resolve("endpoints.yaml"));

    Cli.Run directory = Cli.run("validate", "--config", config.toString());

    assertThat(directory.exit()).isEqualTo(2);
    assertThat(directory.errLines()).containsExactly(dir.resolve("endpoints.yaml").toAbsolutePath().normalize()
        + ": is a directory, not a regular file [source.unusable]");
  }
}
