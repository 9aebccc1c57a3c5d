package io.signalbox.controlplane.admin;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.store.StoreSettings;
import io.signalbox.yaml.Parsed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;

/**
 * A whole Signalbox (in-memory store, real ADS server, real reconciler, real admin HTTP server on
 * loopback) in a temp directory, serving cluster {@code greeter} with endpoints
 * 127.0.0.1:50001..5000N, and a real HTTP client to talk to its admin API. The one running-server
 * fixture of the admin API and CLI tests (the CLI tests had a trimmed copy of it); public so that
 * every package's tests can start one.
 */
public final class RunningSignalbox implements AutoCloseable {

  public static final ObjectMapper JSON = new ObjectMapper();

  public final SignalboxServer server;
  private final Path dir;
  private int endpointCount;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private RunningSignalbox(Path dir, SignalboxServer server, int endpointCount) {
    this.dir = dir;
    this.server = server;
    this.endpointCount = endpointCount;
  }

  /**
   * One endpoint.
   *
   * @param adminYaml the body of the {@code admin:} mapping, port included, e.g. {@code "port: 0"}
   */
  public static RunningSignalbox start(Path dir, String adminYaml) {
    return start(dir, 1, adminYaml, "", false);
  }

  /**
   * The admin server on an ephemeral port.
   *
   * @param adminYaml extra keys of the {@code admin:} mapping (e.g. tokens), or ""
   * @param clusterYaml extra keys of cluster {@code greeter} (e.g. {@code maxEjectionPercent: 40}), or ""
   */
  public static RunningSignalbox start(Path dir, int endpoints, String adminYaml, String clusterYaml) {
    return start(dir, endpoints, adminYaml, clusterYaml, true);
  }

  private static RunningSignalbox start(Path dir, int endpoints, String adminYaml, String clusterYaml,
      boolean ephemeralPort) {
    write(dir, "endpoints.yaml", endpoints(endpoints));
    Path config = write(dir, "signalbox.yaml", """
        xds: { port: 0, address: 127.0.0.1 }
        admin:
          address: 127.0.0.1
          %s
        store: { url: memory }
        # These tests watch clients NACK and stay NACKing; rollbacks have their own tests.
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
        """.formatted(((ephemeralPort ? "port: 0\n" : "") + adminYaml).strip().replace("\n", "\n  "),
        clusterYaml.strip().replace("\n", "\n    ")));
    RunningSignalbox running = new RunningSignalbox(dir, serve(config), endpoints);
    await().atMost(Duration.ofSeconds(10)).until(() -> running.epoch() > 0);
    return running;
  }

  /**
   * Signalbox started in this JVM from {@code config} as it is, on the memory store with its data
   * directory beside the file: how every in-JVM end-to-end test starts the server it drives. The
   * caller waits for what it needs and closes the server.
   */
  public static SignalboxServer serve(Path config) {
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(config)).value();
    return SignalboxServer.start(config, cfg, new StoreSettings("memory", config.resolveSibling("data"), null, null),
        Clock.systemUTC());
  }

  /** An endpoint file with {@code count} endpoints on 127.0.0.1, ports 50001... */
  public static String endpoints(int count) {
    StringBuilder yaml = new StringBuilder("clusters:\n  greeter:\n");
    for (int i = 1; i <= count; i++) {
      yaml.append("    - { address: 127.0.0.1, port: ").append(50000 + i).append(", zone: a }\n");
    }
    return yaml.toString();
  }

  /** Adds an endpoint and waits for the epoch that carries the change. */
  public synchronized long publishNewEpoch() {
    long before = epoch();
    write(dir, "endpoints.yaml", endpoints(++endpointCount));
    await().atMost(Duration.ofSeconds(10)).until(() -> epoch() > before);
    return epoch();
  }

  /** The newest epoch published (0 before the first). */
  public long epoch() {
    return server.reconciler().status().epoch();
  }

  /** The admin server's base URL, as the CLI's {@code --server} takes it. */
  public String url() {
    return "http://127.0.0.1:" + server.adminPort();
  }

  public static Path write(Path dir, String name, String content) {
    try {
      Path tmp = Files.createTempFile(dir, "." + name, ".tmp");
      Files.writeString(tmp, content);
      return Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public URI uri(String path) {
    return URI.create(url() + path);
  }

  public HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return http.send(request.timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public HttpResponse<String> get(String path, String token) {
    return send(authorized(HttpRequest.newBuilder(uri(path)).GET(), token));
  }

  public HttpResponse<String> get(String path) {
    return get(path, null);
  }

  public HttpResponse<String> post(String path, String body, String token) {
    return send(authorized(HttpRequest.newBuilder(uri(path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)), token));
  }

  private static HttpRequest.Builder authorized(HttpRequest.Builder request, String token) {
    return token == null ? request : request.header("Authorization", "Bearer " + token);
  }

  public static JsonNode json(HttpResponse<String> response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + response.body(), e);
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
