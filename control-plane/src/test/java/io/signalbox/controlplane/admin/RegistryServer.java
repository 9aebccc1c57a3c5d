package io.signalbox.controlplane.admin;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.StoreSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * A whole Signalbox with the REST registry on (real ADS server, reconciler, admin HTTP server on
 * loopback), its greeter cluster fed by an endpoint file, and a real HTTP client. Drains of
 * clusters it does not declare last {@value #DRAIN_TIMEOUT}, so departures finish within a test.
 */
final class RegistryServer implements AutoCloseable {

  static final String DRAIN_TIMEOUT = "2s";

  final SignalboxServer server;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private RegistryServer(SignalboxServer server) {
    this.server = server;
  }

  /**
   * @param registryYaml the {@code sources.registry} mapping, e.g. {@code "{ leaseTtl: 1s }"}
   * @param adminYaml extra lines of the {@code admin:} mapping (tokens), or empty
   * @param store {@code memory}, or {@code embedded} to keep the database in {@code dir/data}
   */
  static RegistryServer start(Path dir, String registryYaml, String adminYaml, String store) {
    RunningSignalbox.write(dir, "endpoints.yaml", RunningSignalbox.endpoints(1));
    Path config = RunningSignalbox.write(dir, "signalbox.yaml", """
        xds: { port: 0, address: 127.0.0.1 }
        admin:
          address: 127.0.0.1
          port: 0
          %s
        store: { url: %s, dataDir: ./data }
        rollout: { rollbackOnNack: false }
        sources:
          files: [ ./endpoints.yaml ]
          registry: %s
        reconcile: { debounce: 20ms, maxDelay: 200ms }
        clusterDefaults: { connectTimeout: 1s, drainTimeout: %s }
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
            connectTimeout: 1s
        """.formatted(adminYaml.strip().replace("\n", "\n  "), store, registryYaml, DRAIN_TIMEOUT));
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(config);
    if (!(parsed instanceof Parsed.Ok<SignalboxConfig> ok)) {
      throw new IllegalArgumentException("test config invalid: " + parsed.violations());
    }
    SignalboxServer server = SignalboxServer.start(config, ok.value(),
        new StoreSettings(store, dir.resolve("data"), null, null), Clock.systemUTC());
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > 0);
    return new RegistryServer(server);
  }

  static RegistryServer start(Path dir, String registryYaml) {
    return start(dir, registryYaml, "", "memory");
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.adminPort() + path);
  }

  HttpResponse<String> send(HttpRequest.Builder request, String token) {
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    try {
      return http.send(request.timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  HttpResponse<String> put(String path, String body, String token) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .PUT(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    return send(request, token);
  }

  HttpResponse<String> put(String path, String body) {
    return put(path, body, null);
  }

  HttpResponse<String> delete(String path, String token) {
    return send(HttpRequest.newBuilder(uri(path)).DELETE(), token);
  }

  HttpResponse<String> delete(String path) {
    return delete(path, null);
  }

  HttpResponse<String> get(String path, String token) {
    return send(HttpRequest.newBuilder(uri(path)).GET(), token);
  }

  HttpResponse<String> get(String path) {
    return get(path, null);
  }

  /** The cluster's endpoints as served now; empty once the cluster itself is gone. */
  JsonNode endpoints(String cluster) {
    HttpResponse<String> response = get("/api/v1/clusters/" + cluster + "/endpoints");
    return response.statusCode() == 404 ? RunningSignalbox.JSON.createArrayNode() : RunningSignalbox.json(response);
  }

  /** The served state of {@code endpoint} in {@code cluster}, or null when it is not served. */
  String stateOf(String cluster, String endpoint) {
    for (JsonNode e : endpoints(cluster)) {
      if (e.get("endpoint").asText().equals(endpoint)) {
        return e.get("state").asText();
      }
    }
    return null;
  }

  @Override
  public void close() {
    server.close();
  }
}
