package io.signalbox.controlplane.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The config and endpoint file the demo's server runs on, in its work directory: an ordinary
 * {@code serve} setup, so a user can read them, edit them while the demo runs, and start from them.
 */
public final class DemoFiles {

  /** The one listener the demo's clients dial ({@code xds:///demo}) and the cluster behind it. */
  public static final String LISTENER = "demo";
  public static final String CLUSTER = "demo-cluster";

  private final Path dir;

  public DemoFiles(Path dir) {
    this.dir = dir;
  }

  public Path config() {
    return dir.resolve("signalbox.yaml");
  }

  public Path endpoints() {
    return dir.resolve("endpoints.yaml");
  }

  /**
   * Writes the config: xDS on loopback, the in-memory store, and one round-robin cluster whose
   * clients report their load.
   */
  public Path writeConfig(int xdsPort, int adminPort) {
    return write(config(), """
        # Written by `signalbox demo`. An ordinary config: `signalbox serve --config` runs it too.
        xds: { port: %d, address: 127.0.0.1, loadReportingInterval: 2s }   # load reports every 2 s: a lively plot
        admin: { port: %d }
        store: { url: memory }                  # the demo keeps nothing after it stops
        sources:
          files: [ ./endpoints.yaml ]           # edit it while the demo runs: each save is an epoch
        listeners:
          - name: %s                          # the demo's clients dial xds:///%s
            apiListener: true
            routeConfig: %s
        routeConfigs:
          - name: %s
            virtualHosts:
              - name: %s
                domains: [ "*" ]
                routes:
                  - match: { prefix: "" }
                    cluster: %s
        clusters:
          - name: %s
            lbPolicy: ROUND_ROBIN
            connectTimeout: 1s
            drainTimeout: 30s
            loadReporting: true                 # clients report their traffic: the dashboard's share plot
        """.formatted(xdsPort, adminPort, LISTENER, LISTENER, LISTENER, LISTENER, LISTENER, CLUSTER, CLUSTER));
  }

  /**
   * Writes the endpoint file: every backend READY in a zone of its own, named after it, the last one
   * weighing {@code lastWeight} (the demo changes it now and then, so the dashboard has epochs to
   * show converging). gRPC clients report load per locality, not per endpoint: a locality per
   * backend makes the dashboard's per-locality share plot a per-backend one.
   */
  public Path writeEndpoints(List<DemoBackends.Backend> backends, int lastWeight) {
    StringBuilder yaml = new StringBuilder("# Written by `signalbox demo`: its backends, on loopback.\nclusters:\n  ")
        .append(CLUSTER).append(":\n");
    for (int i = 0; i < backends.size(); i++) {
      int weight = i == backends.size() - 1 ? lastWeight : 1;
      yaml.append("    - { address: 127.0.0.1, port: ").append(backends.get(i).port())
          .append(", zone: ").append(backends.get(i).name())
          .append(", weight: ").append(weight).append(", state: READY }   # ")
          .append(backends.get(i).name()).append('\n');
    }
    return write(endpoints(), yaml.toString());
  }

  /** Replaces the file by rename: the file source never reads half of it. */
  private Path write(Path file, String content) {
    try {
      Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
      Files.writeString(tmp, content);
      return Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file, e);
    }
  }
}
