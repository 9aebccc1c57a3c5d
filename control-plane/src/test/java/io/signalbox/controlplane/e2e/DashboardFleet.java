package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.AnsweringAdsClient;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.config.TokenSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The fleet the dashboard's panel tests look at: a Signalbox with tokens (a viewer and an operator)
 * and live clients (grpc-xds, and two raw ADS clients in another node group), and a headless
 * Chromium to read the page with. Each test class that extends it gets its own.
 */
abstract class DashboardFleet {

  static final String VIEWER = "viewer-secret";
  static final String OPERATOR = "operator-secret";
  static final String NODE = "grpc-panels";

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;
  static List<AnsweringAdsClient> adsClients = new ArrayList<>();
  static ChromeDriver browser;
  static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  static final ObjectMapper json = new ObjectMapper();

  @BeforeAll
  static void start() throws Exception {
    DashboardIT.assumeChromium();
    ws = new Workspace(dir);
    backends = Backends.start("b1", "b2", "b3");
    int xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", endpoints(1, "b1", "b2", "b3"));
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN").replace("admin: { port: 0 }", """
        admin:
          port: 0
          tokens:
            - { name: dash, role: viewer, sha256: %s }
            - { name: ops, role: operator, sha256: %s }""".formatted(TokenSettings.sha256Hex(VIEWER),
        TokenSettings.sha256Hex(OPERATOR))));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, NODE);
    channel = client.channel("greeter");
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> !call().isEmpty());
    for (String node : List.of("web-1", "web-2")) {
      adsClients.add(new AnsweringAdsClient(server.xdsPort(), node, "web"));
    }
    browser = DashboardIT.chromium(dir);
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    for (AnsweringAdsClient c : adsClients) {
      c.close();
    }
    // Static, so the next class that extends this one starts with none of ours.
    adsClients.clear();
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  static String endpoints(int weightOfFirst, String... names) {
    StringBuilder yaml = new StringBuilder("clusters:\n  greeter:\n");
    for (int i = 0; i < names.length; i++) {
      yaml.append("    - { address: 127.0.0.1, port: ").append(backends.port(names[i])).append(", zone: a, weight: ")
          .append(i == 0 ? weightOfFirst : 1).append(" }\n");
    }
    return yaml.toString();
  }

  static String call() {
    return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  static JsonNode api(String path) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.adminPort() + path))
        .header("Authorization", "Bearer " + VIEWER).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return json.readTree(response.body());
  }

  /** A new epoch from the endpoint file, waited for. */
  static long publish(String endpointsYaml) {
    long before = server.reconciler().status().epoch();
    ws.write("endpoints.yaml", endpointsYaml);
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > before);
    return server.reconciler().status().epoch();
  }

  /** Opens the dashboard as the holder of {@code token}; the first visit goes through the token form. */
  static void openAs(String token) {
    browser.get("http://127.0.0.1:" + server.adminPort() + "/");
    browser.executeScript("sessionStorage.clear()");
    browser.navigate().refresh();
    await().atMost(Duration.ofSeconds(10)).until(() -> browser.findElement(By.id("login")).isDisplayed());
    browser.findElement(By.id("token")).sendKeys(token);
    browser.findElement(By.cssSelector("#login button[type=submit]")).click();
    await().atMost(Duration.ofSeconds(10)).until(() -> browser.findElement(By.id("whoami")).getText()
        .startsWith("signed in as"));
  }

  static JsonNode only(JsonNode items, String kind) {
    List<JsonNode> found = new ArrayList<>();
    items.forEach(i -> {
      if (i.get("kind").asText().equals(kind)) {
        found.add(i);
      }
    });
    assertThat(found).as(kind + " in " + items).hasSize(1);
    return found.get(0);
  }

  static List<String> cells(String css) {
    return browser.findElements(By.cssSelector(css)).stream().map(WebElement::getText).toList();
  }

  /** An operator's write, as the CLI sends it. */
  static void post(String path, String body) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.adminPort() + path))
        .header("Authorization", "Bearer " + OPERATOR).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path + ": " + response.body()).isBetween(200, 202);
  }
}
