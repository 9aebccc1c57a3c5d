package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The read side of load reports end to end: grpc-xds sends steady traffic to three backends, each
 * in a zone of its own, through a cluster with {@code loadReporting: true}; its LRS reports reach
 * the API ({@code GET /api/v1/clusters/{c}/load}), the metrics, and the dashboard's share plot in
 * headless Chromium, which draws exactly the API's numbers. Backends made to fail every call raise
 * correlated errors in the load view, the status, the dashboard and the metric; a client that goes
 * away is listed as stopped. Leaves {@code target/dashboard-load.png}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LoadViewsIT {

  static final String NODE = "grpc-load";
  static final List<String> ZONES = List.of("z1", "z2", "z3");

  @TempDir static Path dir;
  static final AtomicBoolean failing = new AtomicBoolean();
  static final List<Server> backends = new ArrayList<>();
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;
  static ScheduledExecutorService traffic;
  static ChromeDriver browser;
  static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  static final ObjectMapper json = new ObjectMapper();

  @BeforeAll
  static void start() throws Exception {
    Workspace ws = new Workspace(dir);
    StringBuilder endpoints = new StringBuilder("clusters:\n  greeter:\n");
    for (String zone : ZONES) {
      Server backend = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
          .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
            @Override
            public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
              if (failing.get()) {
                response.onError(Status.INTERNAL.withDescription("shared dependency down").asRuntimeException());
                return;
              }
              response.onNext(SimpleResponse.newBuilder().setResponseMessage(zone).build());
              response.onCompleted();
            }
          }).build().start();
      backends.add(backend);
      endpoints.append("    - { address: 127.0.0.1, port: ").append(backend.getPort()).append(", zone: ").append(zone)
          .append(" }\n");
    }
    ws.write("endpoints.yaml", endpoints.toString());
    int xdsPort = Workspace.freePort();
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN")
        .replace("xds: { port: " + xdsPort + " }", "xds: { port: " + xdsPort + ", loadReportingInterval: 1s }")
        .replace("    connectTimeout: 1s\n", "    connectTimeout: 1s\n    loadReporting: true\n"));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, NODE);
    channel = client.channel("greeter");
    traffic = Executors.newSingleThreadScheduledExecutor();
    // Asynchronous calls every 20 ms: steady work on every locality, failures counted by the client.
    traffic.scheduleAtFixedRate(() -> SimpleServiceGrpc.newStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance(), new StreamObserver<>() {
          @Override
          public void onNext(SimpleResponse value) {}

          @Override
          public void onError(Throwable t) {}

          @Override
          public void onCompleted() {}
        }), 0, 20, TimeUnit.MILLISECONDS);
    DashboardIT.assumeChromium();
    browser = DashboardIT.chromium(dir);
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (traffic != null) {
      traffic.shutdownNow();
    }
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    for (Server b : backends) {
      b.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  static JsonNode api(String path) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.adminPort() + path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return json.readTree(response.body());
  }

  static String metrics() throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminPort() + "/metrics"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  @SuppressWarnings("unchecked")
  static List<String> script(String js) {
    return new ArrayList<>((List<String>) browser.executeScript(js));
  }

  /** Each zone's share in percent per interval end, as the plot must draw it from the API's history. */
  static TreeSet<String> servedShares(JsonNode history) {
    TreeSet<String> served = new TreeSet<>();
    for (JsonNode point : history) {
      long total = 0;
      for (JsonNode v : point.get("issued")) {
        total += v.asLong();
      }
      for (String zone : ZONES) {
        long issued = point.get("issued").path(zone).asLong();
        served.add(zone + " " + point.get("end").asText() + " " + Math.round(total == 0 ? 0 : 1000.0 * issued / total));
      }
    }
    return served;
  }

  @Test
  @Order(1)
  void theApiAndTheDashboardShowEachLocalitysShareOfTheTraffic() throws Exception {
    await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
      JsonNode load = api("/api/v1/clusters/greeter/load");
      assertThat(load.get("localities").findValuesAsText("name")).containsExactlyInAnyOrderElementsOf(ZONES);
      assertThat(load.get("localities")).allSatisfy(l -> assertThat(l.get("issued").asLong()).isPositive());
      assertThat(load.get("clients").findValuesAsText("nodeId")).containsExactly(NODE);
      assertThat(load.get("stopped")).isEmpty();
      assertThat(load.get("history").size()).isGreaterThanOrEqualTo(3);
    });
    JsonNode load = api("/api/v1/clusters/greeter/load");
    double shares = 0;
    for (JsonNode l : load.get("localities")) {
      shares += l.get("share").asDouble();
    }
    assertThat(shares).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
    // Round robin over three equal localities: nobody gets twice its share.
    assertThat(load.get("skew").asDouble()).isBetween(1.0, 2.0);
    assertThat(api("/api/v1/status").get("loadReporting")).extracting(JsonNode::asText).containsExactly("greeter");
    assertThat(metrics()).contains("signalbox_load_issued_total{cluster=\"greeter\",locality=\"z1\"}")
        .contains("signalbox_load_reporting_clients{cluster=\"greeter\"} 1.0")
        .doesNotContain(NODE);

    browser.get("http://127.0.0.1:" + server.adminPort() + "/");
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
      // The page and the API are read at different moments: compare the intervals both hold.
      TreeSet<String> drawn = new TreeSet<>();
      for (String zone : ZONES) {
        for (String p : DashboardCharts.points(browser, "load-share-chart", zone)) {
          int space = p.indexOf(' ');
          drawn.add(zone + " " + p.substring(0, space) + " " + Math.round(10 * Double.parseDouble(p.substring(space + 1))));
        }
      }
      TreeSet<String> served = servedShares(api("/api/v1/clusters/greeter/load").get("history"));
      TreeSet<String> common = new TreeSet<>(drawn);
      common.retainAll(served);
      assertThat(common.size()).as("drawn %s, served %s", drawn, served).isGreaterThanOrEqualTo(3 * 3);
      assertThat(DashboardCharts.series(browser, "load-share-chart")).containsExactlyInAnyOrderElementsOf(ZONES);
      DashboardCharts.assertEverySeriesLabelled(browser, "load-share-chart");
      assertThat(browser.findElements(By.cssSelector("#load-places tbody tr")).stream()
          .map(r -> r.getAttribute("data-place")).toList()).containsExactlyInAnyOrderElementsOf(ZONES);
      assertThat(browser.findElement(By.id("load-summary")).getText()).startsWith("skew 1.")
          .contains("1 client reporting every 1 s");
      assertThat(browser.findElement(By.id("load-correlated")).getText()).startsWith("No correlated errors: ");
    });
    Path screenshot = Path.of("target", "dashboard-load.png");
    Files.createDirectories(screenshot.getParent());
    Files.move(browser.getScreenshotAs(OutputType.FILE).toPath(), screenshot, StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  @Order(2)
  void backendsFailingTogetherRaiseCorrelatedErrorsEverywhere() throws Exception {
    failing.set(true);
    try {
      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
        JsonNode correlated = api("/api/v1/clusters/greeter/load").get("correlatedErrors");
        assertThat(correlated.get("raised").asBoolean()).as(correlated.toString()).isTrue();
        assertThat(correlated.get("erring")).extracting(JsonNode::asText).containsExactlyInAnyOrderElementsOf(ZONES);
      });
      JsonNode status = api("/api/v1/status");
      assertThat(status.get("correlatedErrors")).hasSize(1);
      assertThat(status.get("correlatedErrors").get(0).asText()).startsWith("cluster 'greeter': 3 of 3 localities")
          .endsWith("[load.correlated-errors]");
      assertThat(metrics()).contains("signalbox_load_correlated_errors{cluster=\"greeter\"} 1.0");
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
        List<String> shown = browser.findElements(By.cssSelector("#correlated li")).stream()
            .map(WebElement::getText).toList();
        assertThat(shown).singleElement().asString().startsWith("cluster 'greeter': 3 of 3 localities");
        assertThat(browser.findElement(By.id("load-correlated")).getText()).startsWith("Correlated errors: ");
        assertThat(browser.findElements(By.cssSelector("#load-places tbody td.bad"))).hasSize(3);
      });
      TreeMap<String, Long> errored = new TreeMap<>();
      for (JsonNode l : api("/api/v1/clusters/greeter/load").get("localities")) {
        errored.put(l.get("name").asText(), l.get("errored").asLong());
      }
      assertThat(errored.values()).allSatisfy(n -> assertThat(n).isPositive());
    } finally {
      failing.set(false);
    }
    await().atMost(Duration.ofSeconds(60)).until(() -> api("/api/v1/status").get("correlatedErrors").isEmpty());
  }

  @Test
  @Order(3)
  void aClientThatGoesAwayIsListedAsStopped() throws Exception {
    traffic.shutdownNow();
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);

    await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
        assertThat(api("/api/v1/clusters/greeter/load").get("stopped")).extracting(JsonNode::asText)
            .containsExactly(NODE));
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
        assertThat(browser.findElement(By.id("load-stopped")).getText()).startsWith("Stopped reporting: " + NODE));
    assertThat(metrics()).contains("signalbox_load_clients_stopped{cluster=\"greeter\"} 1.0");
  }
}
