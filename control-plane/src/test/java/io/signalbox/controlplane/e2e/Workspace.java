package io.signalbox.controlplane.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Files of one end-to-end run: written atomically, the way operators' tooling does it. */
final class Workspace {

  private final Path dir;

  Workspace(Path dir) {
    this.dir = dir;
  }

  Path file(String name) {
    return dir.resolve(name);
  }

  /** Replaces {@code name} by rename, so a reader never sees half a file. */
  Path write(String name, String content) {
    try {
      Path tmp = Files.createTempFile(dir, "." + name, ".tmp");
      Files.writeString(tmp, content);
      return Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code config} (from {@link #config}) with automatic shedding (issue 31) on its cluster: load
   * reports every second, {@code capacityRps} for every endpoint, and {@code admission} (the YAML
   * value of the cluster's {@code admission} field).
   */
  static String shedding(String config, int xdsPort, int capacityRps, String admission) {
    return config
        .replace("xds: { port: " + xdsPort + " }", "xds: { port: " + xdsPort + ", loadReportingInterval: 1s }")
        .replace("    connectTimeout: 1s\n", "    connectTimeout: 1s\n    loadReporting: true\n"
            + "    capacity: { rps: " + capacityRps + " }\n"
            + "    admission: " + admission + "\n"
            // One update drains two of three: above the default mass-removal guard (50 %), which would hold it.
            + "    massRemovalPercent: 70\n");
  }

  static String config(int xdsPort, String lbPolicy) {
    return config(xdsPort, lbPolicy, "{ settle: 1s }");
  }

  static String config(int xdsPort, String lbPolicy, String rollout) {
    return """
        xds: { port: %d }
        rollout: %s
        admin: { port: 0 }
        store: { url: memory }
        sources:
          files: [ ./endpoints.yaml ]
        reconcile: { debounce: 50ms, maxDelay: 500ms }
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
            lbPolicy: %s
            connectTimeout: 1s
        """.formatted(xdsPort, rollout, lbPolicy);
  }
}
