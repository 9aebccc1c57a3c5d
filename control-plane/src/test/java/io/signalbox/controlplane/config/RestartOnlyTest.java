package io.signalbox.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.yaml.Parsed;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Which keys a reload cannot apply, and how a reloaded config is told apart from the running one. */
class RestartOnlyTest {

  private static final Path BASE = Path.of("/etc/signalbox");

  private static SignalboxConfig load(String yaml) {
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(yaml, "signalbox.yaml", BASE);
    assertThat(parsed.violations()).isEmpty();
    return ((Parsed.Ok<SignalboxConfig>) parsed).value();
  }

  @Test
  void theDesiredStateIsNotRestartOnlyAndEverySettingIs() {
    SignalboxConfig running = load("xds: { port: 18000 }\nclusters: [ { name: a } ]\n");
    SignalboxConfig configured = load("""
        xds: { port: 18001, limits: { maxRequestBytes: 1048576 } }
        store: { url: "jdbc:postgresql://db/signalbox", password: hunter2 }
        admin: { tokens: [ { name: ops, role: operator, secretEnv: OPS_TOKEN } ] }
        clusterDefaults: { connectTimeout: 2s }
        clusters: [ { name: b } ]
        """);

    assertThat(RestartOnly.changes(running, configured)).extracting(Object::toString).containsExactly(
        "admin.address: takes effect at restart (running 127.0.0.1, configured 0.0.0.0)",
        "admin.tokens: takes effect at restart (running [], configured [ops (operator)])",
        "store.password: takes effect at restart (running null, configured ***)",
        "store.url: takes effect at restart (running embedded, configured jdbc:postgresql://db/signalbox)",
        "xds.limits.maxRequestBytes: takes effect at restart (running 4194304, configured 1048576)",
        "xds.port: takes effect at restart (running 18000, configured 18001)");
  }

  @Test
  void aSectionAddedByAReloadIsReportedKeyByKey() {
    SignalboxConfig running = load("xds: { port: 18000 }\n");
    SignalboxConfig configured = load("xds: { port: 18000, tls: { certFile: a.pem, keyFile: a.key } }\n");

    assertThat(RestartOnly.changes(running, configured)).extracting(RestartOnly.Change::key)
        .containsExactly("xds.tls.certFile", "xds.tls.keyFile");
    assertThat(RestartOnly.changes(running, running)).isEmpty();
  }
}
