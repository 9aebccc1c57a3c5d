package io.signalbox.controlplane.cli;

import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.StoreSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;

/**
 * A whole Signalbox (in-memory store, real ADS server, reconciler, admin HTTP on loopback) in a
 * temp directory, serving cluster {@code greeter} with endpoints 127.0.0.1:50001..5000N. (The
 * admin tests' harness, trimmed to what the CLI tests need.)
 */
final class RunningSignalbox implements AutoCloseable {

  final SignalboxServer server;
  private final Path dir;
  private int endpointCount;

  private RunningSignalbox(Path dir, SignalboxServer server, int endpointCount) {
    this.dir = dir;
    this.server = server;
    this.endpointCount = endpointCount;
  }

  /**
   * @param adminYaml extra keys of the {@code admin:} mapping (e.g. tokens), or ""
   * @param clusterYaml extra keys of cluster {@code greeter} (e.g. {@code maxEjectionPercent: 40}), or ""
   */
  static RunningSignalbox start(Path dir, int endpoints, String adminYaml, String clusterYaml) {
    write(dir, "endpoints.yaml", endpoints(endpoints));
    Path config = write(dir, "signalbox.yaml", """
        xds: { port: 0, address: 127.0.0.1 }
        admin:
          address: 127.0.0.1
          port: 0
          %s
        store: { url: memory }
        rollout: { rollbackOnNack: false }
        sources:
          files: [ ./endpoints.yaml ]
        reconcile: { debounce: 20ms, maxDelay: 200ms }
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
            %s
        """.formatted(adminYaml.strip().replace("\n", "\n  "), clusterYaml.strip().replace("\n", "\n    ")));
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(config)).value();
    SignalboxServer server = SignalboxServer.start(config, cfg,
        new StoreSettings("memory", dir.resolve("data"), null, null), Clock.systemUTC());
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > 0);
    return new RunningSignalbox(dir, server, endpoints);
  }

  static String endpoints(int count) {
    StringBuilder yaml = new StringBuilder("clusters:\n  greeter:\n");
    for (int i = 1; i <= count; i++) {
      yaml.append("    - { address: 127.0.0.1, port: ").append(50000 + i).append(", zone: a }\n");
    }
    return yaml.toString();
  }

  /** Adds an endpoint and waits for the epoch that carries it. */
  long publishNewEpoch() {
    long before = epoch();
    write(dir, "endpoints.yaml", endpoints(++endpointCount));
    await().atMost(Duration.ofSeconds(10)).until(() -> epoch() > before);
    return epoch();
  }

  long epoch() {
    return server.reconciler().status().epoch();
  }

  String url() {
    return "http://127.0.0.1:" + server.adminPort();
  }

  static Path write(Path dir, String name, String content) {
    try {
      Path tmp = Files.createTempFile(dir, "." + name, ".tmp");
      Files.writeString(tmp, content);
      return Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
