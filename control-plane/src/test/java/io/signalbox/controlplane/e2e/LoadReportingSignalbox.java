package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One Signalbox in this JVM (memory store, endpoint file) whose cluster {@code greeter} asks for
 * load reports every second, per endpoint, and grpc-java's own xDS client calling {@code greeter}
 * through it and reporting: for the classes that judge what the reports make of the traffic. Once
 * started, the client has had a first answer, so it holds the config.
 */
final class LoadReportingSignalbox implements AutoCloseable {

  final Workspace ws;
  final SignalboxServer server;
  final Admin admin;
  final Traffic traffic;

  private LoadReportingSignalbox(Path dir, String nodeId, String endpoints, String... clusterLines) {
    ws = new Workspace(dir);
    int xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", endpoints);
    StringBuilder cluster = new StringBuilder("    connectTimeout: 1s\n");
    for (String line : clusterLines) {
      cluster.append("    ").append(line).append('\n');
    }
    cluster.append("    loadReporting: true\n    loadReportingPerEndpoint: true\n");
    String config = Workspace.config(xdsPort, "ROUND_ROBIN")
        .replace("xds: { port: " + xdsPort + " }", "xds: { port: " + xdsPort + ", loadReportingInterval: 1s }")
        .replace("    connectTimeout: 1s\n", cluster.toString());
    assertThat(config).contains("loadReportingInterval: 1s").contains("loadReportingPerEndpoint: true");
    Path file = ws.write("signalbox.yaml", config);
    server = RunningSignalbox.serve(file);
    admin = new Admin(server.adminPort());
    traffic = new Traffic(GrpcXdsClient.bootstrap(xdsPort, nodeId).open("greeter"));
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> traffic.call() != null);
  }

  /**
   * Starts it with {@code endpoints} as the endpoint file, the client as {@code nodeId}, and
   * {@code clusterLines} (such as {@code "drainTimeout: 5m"}) added to {@code greeter}.
   */
  static LoadReportingSignalbox start(Path dir, String nodeId, String endpoints, String... clusterLines) {
    return new LoadReportingSignalbox(dir, nodeId, endpoints, clusterLines);
  }

  @Override
  public void close() throws InterruptedException {
    traffic.close();
    server.close();
  }
}
