package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.TypeStatus;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The dashboard in Debian's headless Chromium against a Signalbox serving one grpc-xds client:
 * the client on the current epoch, then converged on a new one, then its NACK of a MAGLEV cluster
 * with grpc-xds's own error text. Leaves a screenshot in {@code target/dashboard.png}.
 */
class DashboardIT {

  /** The dashboard must show a NACK that stands; GrpcXdsRollbackIT covers the automatic rollback. */
  private static final String STANDING_NACK = "{ rollbackOnNack: false }";

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final String NODE = "grpc-dash";

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;
  static ChromeDriver browser;
  static int xdsPort;

  @BeforeAll
  static void start() throws Exception {
    assumeChromium();
    ws = new Workspace(dir);
    backends = Backends.start("b1", "b2");
    xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", endpoints("b1"));
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN", STANDING_NACK));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, NODE);
    channel = client.channel("greeter");
    browser = chromium(dir);
  }

  /** Whether Debian's Chromium and its driver are installed; the dashboard tests skip without them. */
  static void assumeChromium() {
    Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "the dashboard tests need Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver); "
            + ".ci/run installs them");
  }

  /** Debian's Chromium and driver, named explicitly so Selenium Manager never looks for (or downloads) any. */
  static ChromeDriver chromium(Path dir) throws Exception {
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
    ChromeOptions options = new ChromeOptions()
        .setBinary(CHROMIUM.toFile())
        .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--window-size=1400,1900", "--user-data-dir=" + profile);
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
        .usingAnyFreePort()
        .build();
    return new ChromeDriver(service, options);
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
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

  static String endpoints(String... names) {
    StringBuilder yaml = new StringBuilder("clusters:\n  greeter:\n");
    for (String name : names) {
      yaml.append("    - { address: 127.0.0.1, port: ").append(backends.port(name)).append(", zone: a }\n");
    }
    return yaml.toString();
  }

  static String call() {
    return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  static String text(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  /** The cells of the client's row in the clients table, or of the NACK table. */
  static List<String> row(String table) {
    try {
      return browser.findElements(By.cssSelector("#" + table + " tbody tr[data-node='" + NODE + "'] td"))
          .stream().map(WebElement::getText).toList();
    } catch (StaleElementReferenceException | NoSuchElementException e) {
      return List.of(); // the table was re-rendered between finding and reading: poll again
    }
  }

  /** The dashboard shows {@code epoch} as current and the client holding it with no lag. */
  static void awaitConverged(long epoch) {
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(text("epoch")).isEqualTo(Long.toString(epoch));
      assertThat(text("converged")).isEqualTo("1 / 1 (100%)");
      List<String> cells = row("clients");
      assertThat(cells).hasSize(8);
      assertThat(cells.subList(0, 5)).containsExactly(NODE, "e2e", "a", Long.toString(epoch), "0");
    });
  }

  @Test
  void showsTheClientConvergingAndThenItsNack() throws Exception {
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> call().equals("b1"));
    browser.get("http://127.0.0.1:" + server.adminPort() + "/");
    assertThat(browser.getTitle()).isEqualTo("Signalbox");
    awaitConverged(server.reconciler().status().epoch());
    assertThat(text("store")).isEqualTo("available");
    assertThat(text("frozen")).isEqualTo("no");
    assertThat(text("nacking")).isEqualTo("0");
    // Nothing needs attention: the section is one line, and the four plots fit a 1400×1000 screen.
    await().atMost(Duration.ofSeconds(10)).ignoreException(StaleElementReferenceException.class).untilAsserted(() -> {
      assertThat(browser.findElement(By.id("attention-none")).isDisplayed()).isTrue();
      assertThat(browser.findElements(By.cssSelector("#attention section.attention")))
          .allSatisfy(s -> assertThat(s.isDisplayed()).as(s.getAttribute("id")).isFalse());
      assertThat(browser.findElement(By.id("attention")).getSize().getHeight()).isLessThan(60);
      assertThat(browser.findElements(By.cssSelector(".charts section.panel"))).hasSize(4)
          .allSatisfy(p -> assertThat(p.getLocation().getY() + p.getSize().getHeight())
              .as("bottom of %s", p.getAttribute("aria-labelledby")).isLessThanOrEqualTo(1000));
    });
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      assertThat(text("leader")).startsWith("One process (standalone)");
      assertThat(browser.findElements(By.cssSelector("#replicas tbody tr td")).stream().map(e -> e.getText())
          .toList()).hasSize(5).element(1).isEqualTo("standalone");
    });

    long before = server.reconciler().status().epoch();
    ws.write("endpoints.yaml", endpoints("b1", "b2"));
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > before);
    long changed = server.reconciler().status().epoch();
    awaitConverged(changed);
    assertThat(browser.findElements(By.cssSelector("#epochs tbody tr")).get(0).getText())
        .startsWith(changed + " ");

    ws.write("signalbox.yaml", Workspace.config(xdsPort, "MAGLEV", STANDING_NACK));
    await().atMost(Duration.ofSeconds(10)).until(() -> cds() != null && cds().nack() != null);
    String grpcError = cds().nack().message();
    long rejected = cds().nack().epoch();
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(text("nacking")).isEqualTo("1");
      List<String> nack = row("nacks");
      assertThat(nack).hasSize(7);
      assertThat(nack.subList(0, 4)).containsExactly(NODE, "e2e", "CDS", Long.toString(rejected));
      assertThat(nack.get(5)).isEqualTo(grpcError.strip());
      assertThat(row("clients").get(7)).isEqualTo(("CDS @" + rejected + ": " + grpcError).strip());
    });
    assertThat(grpcError).containsIgnoringCase("maglev");

    // A source that refuses its input says why (file, field, rule) wherever it says FAILED, and the
    // page never calls the input valid next to it.
    ws.write("endpoints.yaml", endpoints("b1").replace("port: " + backends.port("b1"), "port: 70000"));
    // The rows are rebuilt every 2 s: an element found just before may be gone when read.
    await().atMost(Duration.ofSeconds(20)).ignoreException(StaleElementReferenceException.class).untilAsserted(() -> {
      List<String> source = browser.findElements(By.cssSelector("#sources tbody tr[data-source^='file:'] td")).stream()
          .map(WebElement::getText).toList();
      assertThat(source).hasSize(3);
      assertThat(source.get(1)).isEqualTo("FAILED");
      assertThat(source.get(2)).contains("endpoints.yaml", "port: must be <= 65535, was 70000 [range]");
      assertThat(browser.findElements(By.cssSelector("#source-problems li"))).singleElement()
          .satisfies(li -> assertThat(li.getText()).startsWith("FAILED: file:").contains("[range]"));
      assertThat(text("sources-state")).isEqualTo("1 failed");
      assertThat(text("rejection")).doesNotContain("every input so far was valid");
    });

    Path screenshot = Path.of("target", "dashboard.png");
    Files.createDirectories(screenshot.getParent());
    Files.move(browser.getScreenshotAs(OutputType.FILE).toPath(), screenshot, StandardCopyOption.REPLACE_EXISTING);
  }

  static TypeStatus cds() {
    return server.xds().clients().stream()
        .filter(c -> c.nodeId().equals(NODE))
        .map(c -> c.types().get(XdsType.CLUSTER.typeUrl()))
        .filter(t -> t != null)
        .findFirst().orElse(null);
  }
}
