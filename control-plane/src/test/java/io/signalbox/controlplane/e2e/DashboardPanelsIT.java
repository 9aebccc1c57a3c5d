package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.AnsweringAdsClient;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.config.TokenSettings;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.StoreSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The dashboard's charts and panels in Debian's headless Chromium, against a Signalbox with tokens
 * and live clients (grpc-xds, and two raw ADS clients in another node group): the convergence and
 * lag charts draw exactly the API's numbers, a held update can be confirmed by an operator and
 * shows no button to a viewer, and an epoch page shows its diff. Leaves
 * {@code target/dashboard-panels.png}.
 */
class DashboardPanelsIT {

  static final String VIEWER = "viewer-secret";
  static final String OPERATOR = "operator-secret";
  static final String NODE = "grpc-panels";

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static SignalboxServer server;
  static ManagedChannel channel;
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
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(config)).value();
    server = SignalboxServer.start(config, cfg,
        new StoreSettings("memory", dir.resolve("data"), null, null), Clock.systemUTC());
    Workspace.bootstrapGrpcXds(xdsPort, NODE);
    channel = Grpc.newChannelBuilder("xds:///greeter", InsecureChannelCredentials.create()).build();
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
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
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

  @SuppressWarnings("unchecked")
  static List<String> script(String js) {
    return new ArrayList<>((List<String>) browser.executeScript(js));
  }

  @Test
  void theConvergenceAndLagChartsDrawTheApisNumbers() throws Exception {
    long last = 0;
    for (int weight = 2; weight <= 4; weight++) {
      last = publish(endpoints(weight, "b1", "b2", "b3"));
    }
    long newest = last;
    await().atMost(Duration.ofSeconds(20)).until(() -> api("/api/v1/convergence").get(0).get("epoch").asLong() == newest
        && api("/api/v1/convergence").get(0).get("seconds").get("p100").isNumber());
    openAs(VIEWER);

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      TreeSet<String> drawn = new TreeSet<>();
      for (String share : List.of("50 %", "90 %", "99 %", "100 %")) {
        DashboardCharts.points(browser, "convergence-chart", share).forEach(p -> drawn.add(p.replace(" ", " " + share + " ")));
      }
      TreeSet<String> served = new TreeSet<>();
      for (JsonNode e : api("/api/v1/convergence")) {
        e.get("seconds").fields().forEachRemaining(s -> {
          if (s.getValue().isNumber()) {
            served.add(e.get("epoch").asLong() + " " + s.getKey().substring(1) + " % " + number(s.getValue().asDouble()));
          }
        });
      }
      assertThat(served).contains(newest + " 100 % " + number(api("/api/v1/convergence").get(0).get("seconds")
          .get("p100").asDouble()));
      assertThat(drawn).isEqualTo(served);
    });

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      JsonNode samples = api("/api/v1/lag?groups=4").get("samples");
      assertThat(samples.size()).isGreaterThanOrEqualTo(2);
      List<String> served = new ArrayList<>();
      List<String> servedWeb = new ArrayList<>();
      for (JsonNode s : samples) {
        served.add(s.get("at").asText() + " " + number(s.get("behind").asDouble()));
        // The chart draws a group missing from a sample (not connected yet) at 0.
        double web = 0;
        for (JsonNode g : s.get("groups")) {
          if (g.get("group").asText().equals("web")) {
            web = g.get("maxLagSeconds").asDouble();
          }
        }
        servedWeb.add(s.get("at").asText() + " " + number(web));
      }
      assertThat(DashboardCharts.points(browser, "lag-behind-chart", "all clients")).isEqualTo(served);
      assertThat(DashboardCharts.points(browser, "lag-seconds-chart", "web")).isEqualTo(servedWeb);
      // Every series has its own legend entry, label and colour: the fleet and both node groups.
      assertThat(DashboardCharts.series(browser, "lag-behind-chart")).containsExactlyInAnyOrder("all clients", "web", "e2e");
      for (String chart : List.of("convergence-chart", "lag-behind-chart", "lag-seconds-chart")) {
        DashboardCharts.assertEverySeriesLabelled(browser, chart);
      }
      assertThat(DashboardCharts.series(browser, "convergence-chart")).containsExactly("50 %", "90 %", "99 %", "100 %");
    });
    // Counts get whole-number ticks only (never "0.5" on "Clients behind").
    assertThat(DashboardCharts.yTicks(browser, "lag-behind-chart")).isNotEmpty()
        .allSatisfy(t -> assertThat(t).matches("[0-9,]+"));
    // Values on hover: over the oldest sample, the legend shows its time instead of the newest.
    Map<String, Object> hovered = DashboardCharts.hoverFirst(browser, "lag-behind-chart");
    assertThat(hovered.get("idx")).isEqualTo(0L);
    assertThat(hovered.get("shown")).isEqualTo(hovered.get("expected"));
    assertThat(browser.findElement(By.id("convergence-summary")).getText()).startsWith("Epoch " + newest + " (");
    Path screenshot = Path.of("target", "dashboard-panels.png");
    Files.createDirectories(screenshot.getParent());
    Files.move(browser.getScreenshotAs(OutputType.FILE).toPath(), screenshot, StandardCopyOption.REPLACE_EXISTING);
  }

  /** A number as both sides of a comparison print it. */
  static String number(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }

  /** {@code "... 0.0420"} with its last word read as a number and printed by {@link #number}. */
  static String normalized(String drawn) {
    int space = drawn.lastIndexOf(' ');
    return drawn.substring(0, space + 1) + number(Double.parseDouble(drawn.substring(space + 1)));
  }

  @Test
  void aHeldConfigReloadIsShownWithItsFileAndAnOperatorConfirmsIt() throws Exception {
    Path file = ws.file("signalbox.yaml");
    String original = Files.readString(file);
    ws.write("signalbox.yaml", original + "  - { name: spare-a, connectTimeout: 1s }\n"
        + "  - { name: spare-b, connectTimeout: 1s }\n");
    server.reload();
    await().atMost(Duration.ofSeconds(10)).until(() -> clusterNames().contains("spare-b"));
    // Back to the original: two of three declared clusters removed at once, held.
    ws.write("signalbox.yaml", original);
    server.reload();
    await().atMost(Duration.ofSeconds(10)).until(() -> api("/api/v1/held").size() == 1);

    openAs(OPERATOR);
    await().atMost(Duration.ofSeconds(10)).until(() -> !browser.findElements(
        By.cssSelector("#held tbody tr[data-cluster=''] button.confirm")).isEmpty());
    List<String> cells = browser.findElements(By.cssSelector("#held tbody tr[data-cluster=''] td")).stream()
        .map(WebElement::getText).toList();
    assertThat(cells.subList(0, 2)).containsExactly("config " + file, "guard.config-removal");
    assertThat(cells.get(4)).isEqualTo("'signalbox confirm --config' applies the reload as written; or restore the file");
    // The served configuration is the config in force, not the file: said once, with the way forward.
    await().atMost(Duration.ofSeconds(10)).ignoreException(StaleElementReferenceException.class).untilAsserted(() ->
        assertThat(browser.findElements(By.cssSelector("#served-differs tbody tr[data-kind='config'] td")).stream()
            .map(WebElement::getText).toList()).hasSize(3).last()
            .isEqualTo("forward: 'signalbox confirm --config' applies the file as written; or restore the file"));
    browser.findElement(By.cssSelector("#held tbody tr[data-cluster=''] button.confirm")).click();

    await().atMost(Duration.ofSeconds(10)).until(() -> browser.findElement(By.id("confirm-result")).getText()
        .equals("Confirmed the held config reload."));
    await().atMost(Duration.ofSeconds(10)).until(() -> !clusterNames().contains("spare-b")
        && api("/api/v1/held").isEmpty());
    await().atMost(Duration.ofSeconds(10)).until(() -> !browser.findElement(By.id("att-served-differs")).isDisplayed());
  }

  /**
   * A freeze is a hold and a difference from the inputs: both items carry the API's words (what
   * releases it, how to go forward), the Frozen tile agrees with them, and all of it goes on unfreeze.
   */
  @Test
  void aFreezeShowsWhatItHoldsAndHowToGoForwardUntilUnfrozen() throws Exception {
    publish(endpoints(8, "b1", "b2", "b3"));
    post("/api/v1/freeze", "{\"reason\": \"change window\"}");
    try {
      // An input that changes while frozen waits: the difference says so.
      ws.write("endpoints.yaml", endpoints(9, "b1", "b2", "b3"));
      await().atMost(Duration.ofSeconds(10)).until(() -> api("/api/v1/status").get("pendingPublish").asBoolean());
      openAs(VIEWER);
      await().atMost(Duration.ofSeconds(10)).ignoreException(StaleElementReferenceException.class).untilAsserted(() -> {
        JsonNode status = api("/api/v1/status");
        JsonNode hold = only(status.get("holds"), "freeze");
        JsonNode differs = only(status.get("servedDiffers"), "freeze");
        List<String> held = cells("#held tbody tr[data-kind='freeze'] td");
        assertThat(held).hasSize(6);
        assertThat(held.subList(0, 3)).containsExactly("freeze publishing", "freeze", hold.get("message").asText());
        assertThat(held.get(4)).isEqualTo(hold.get("release").asText())
            .isEqualTo("'signalbox unfreeze' publishes what the inputs say now");
        List<String> differ = cells("#served-differs tbody tr[data-kind='freeze'] td");
        assertThat(differ).hasSize(3);
        assertThat(differ.get(0)).isEqualTo(differs.get("says").asText())
            .startsWith("publishing is frozen by ops (change window): epoch ").endsWith(" and newer inputs wait");
        assertThat(differ.get(2)).isEqualTo("forward: " + differs.get("forward").asText())
            .isEqualTo("forward: 'signalbox unfreeze' publishes what the inputs say");
        assertThat(browser.findElement(By.id("frozen")).getText()).startsWith("yes, ").endsWith(" ago");
        assertThat(browser.findElement(By.id("attention-none")).isDisplayed()).isFalse();
      });
    } finally {
      post("/api/v1/unfreeze", "{}");
    }
    await().atMost(Duration.ofSeconds(10)).ignoreException(StaleElementReferenceException.class).untilAsserted(() -> {
      assertThat(browser.findElement(By.id("att-held")).isDisplayed()).isFalse();
      assertThat(browser.findElement(By.id("att-served-differs")).isDisplayed()).isFalse();
      assertThat(browser.findElement(By.id("frozen")).getText()).isEqualTo("no");
    });
    assertThat(api("/api/v1/status").get("holds")).isEmpty();
  }

  /**
   * A rollback makes the served configuration differ from the file: the item says since which epoch
   * and why, in the API's words, and goes once an edit of the file changes the rolled-back cluster.
   */
  @Test
  void aRollbackSaysTheServedConfigurationDiffersUntilTheFileChangesIt() throws Exception {
    Path file = ws.file("signalbox.yaml");
    String original = Files.readString(file);
    long before = server.reconciler().status().epoch();
    ws.write("signalbox.yaml", original.replace("connectTimeout: 1s", "connectTimeout: 2s"));
    server.reload();
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > before);
    post("/api/v1/rollback", "{\"to\": " + before + ", \"reason\": \"slow start\"}");
    try {
      openAs(VIEWER);
      await().atMost(Duration.ofSeconds(10)).ignoreException(StaleElementReferenceException.class).untilAsserted(() -> {
        JsonNode differs = only(api("/api/v1/status").get("servedDiffers"), "rollback");
        List<String> differ = cells("#served-differs tbody tr[data-kind='rollback'] td");
        assertThat(differ).hasSize(3);
        assertThat(differ.get(0)).isEqualTo(differs.get("says").asText())
            .isEqualTo("CLUSTER/greeter served as in epoch " + before + ", not as the inputs say (rollback to epoch "
                + before + " by ops: slow start)");
        assertThat(differ.get(2)).isEqualTo("forward: " + differs.get("forward").asText())
            .startsWith("forward: an edit of the config that changes it serves the inputs again for it");
      });
    } finally {
      ws.write("signalbox.yaml", original);
      server.reload();
    }
    await().atMost(Duration.ofSeconds(10)).ignoreException(StaleElementReferenceException.class).until(() ->
        !browser.findElement(By.id("att-served-differs")).isDisplayed());
    assertThat(api("/api/v1/status").get("servedDiffers")).isEmpty();
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

  private static java.util.Set<String> clusterNames() {
    return server.reconciler().published().resources(io.signalbox.controlplane.snapshot.XdsType.CLUSTER).byName()
        .keySet();
  }

  @Test
  void aHeldUpdateIsShownToAViewerWithoutAButtonAndAnOperatorConfirmsIt() throws Exception {
    // Each test publishes weights of its own, so every write is a change whatever ran before.
    publish(endpoints(5, "b1", "b2", "b3"));
    // Two of three endpoints gone at once: more than massRemovalPercent 50, held.
    ws.write("endpoints.yaml", endpoints(5, "b1"));
    await().atMost(Duration.ofSeconds(10)).until(() -> api("/api/v1/held").size() == 1);

    openAs(VIEWER);
    await().atMost(Duration.ofSeconds(10)).until(() -> !browser.findElements(
        By.cssSelector("#held tbody tr[data-cluster='greeter']")).isEmpty());
    List<String> cells = browser.findElements(By.cssSelector("#held tbody tr[data-cluster='greeter'] td")).stream()
        .map(WebElement::getText).toList();
    // The words of status.holds, which `signalbox status` prints: what, rule, why, and what releases it.
    JsonNode hold = api("/api/v1/status").get("holds").get(0);
    assertThat(cells.subList(0, 3)).containsExactly("update greeter", "guard.mass-removal",
        api("/api/v1/held").get(0).get("message").asText());
    assertThat(cells.get(2)).startsWith("cluster 'greeter': one update takes 2 of 3 eligible endpoints out (66%)");
    assertThat(cells.get(4)).isEqualTo(hold.get("release").asText())
        .startsWith("'signalbox confirm greeter' lets it through");
    assertThat(browser.findElements(By.cssSelector("#held button"))).isEmpty();

    openAs(OPERATOR);
    await().atMost(Duration.ofSeconds(10)).until(() -> !browser.findElements(
        By.cssSelector("#held tbody tr[data-cluster='greeter'] button.confirm")).isEmpty());
    browser.findElement(By.cssSelector("#held tbody tr[data-cluster='greeter'] button.confirm")).click();

    await().atMost(Duration.ofSeconds(10)).until(() -> browser.findElement(By.id("confirm-result")).getText()
        .equals("Confirmed the held update of greeter."));
    await().atMost(Duration.ofSeconds(10)).until(() -> api("/api/v1/held").isEmpty()
        && !browser.findElement(By.id("att-held")).isDisplayed());
    JsonNode audit = api("/api/v1/audit?limit=100");
    assertThat(audit.findValues("action").stream().map(JsonNode::asText)).contains("confirm");
    assertThat(audit.findParents("action").stream().filter(a -> a.get("action").asText().equals("confirm"))
        .map(a -> a.get("actor").asText() + ": " + a.get("reason").asText()))
        .contains("ops: confirmed on the dashboard");
    publish(endpoints(6, "b1", "b2", "b3"));
  }

  @Test
  void anEpochPageShowsItsDiffAndEachGroupsProgress() throws Exception {
    long epoch = publish(endpoints(7, "b1", "b2"));
    openAs(VIEWER);

    await().atMost(Duration.ofSeconds(10)).until(() -> !browser.findElements(
        By.xpath("//table[@id='epochs']//a[text()='" + epoch + "']")).isEmpty());
    browser.findElement(By.xpath("//table[@id='epochs']//a[text()='" + epoch + "']")).click();

    await().atMost(Duration.ofSeconds(10)).until(() -> browser.findElement(By.id("title")).getText()
        .equals("Epoch " + epoch));
    await().atMost(Duration.ofSeconds(10)).until(() -> !browser.findElements(By.cssSelector("#diff tbody tr"))
        .isEmpty());
    assertThat(browser.findElements(By.cssSelector("#diff tbody tr")).stream().map(WebElement::getText))
        .containsExactly("~ changed ENDPOINT greeter");
    // b3 left its source: it drains before it goes. The page lists the API's transitions, all of them.
    List<String> served = new ArrayList<>();
    for (JsonNode t : api("/api/v1/epochs/" + epoch).get("diff").get("endpoints")) {
      served.add(t.get("cluster").asText() + " " + t.get("endpoint").asText() + " "
          + (t.get("from").isNull() ? "new" : t.get("from").asText()) + " "
          + (t.get("to").isNull() ? "removed" : t.get("to").asText()));
    }
    assertThat(served).contains("greeter 127.0.0.1:" + backends.port("b3") + " READY DRAINING");
    assertThat(browser.findElements(By.cssSelector("#transitions tbody tr")).stream().map(WebElement::getText))
        .containsExactlyElementsOf(served);
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(browser.findElements(
        By.cssSelector("#progress tbody tr")).stream().map(r -> r.getAttribute("data-group")))
        .containsExactly("e2e", "web"));
  }
}
