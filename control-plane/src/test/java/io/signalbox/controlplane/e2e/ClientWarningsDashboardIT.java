package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.RecordingAdsClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The dashboard's "Needs attention" panel says what a connected grpc-js client will ignore of what
 * is served, in headless Chromium, as soon as the client connects (issue 33): before any NACK.
 */
class ClientWarningsDashboardIT {

  @TempDir static Path dir;
  static Workspace ws;
  static SignalboxServer server;
  static ChromeDriver browser;

  @BeforeAll
  static void start() throws Exception {
    DashboardIT.assumeChromium();
    ws = new Workspace(dir);
    int xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: 50001, zone: a, weight: 1 }
            - { address: 127.0.0.1, port: 50002, zone: a, weight: 5 }
        """);
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN"));
    server = RunningSignalbox.serve(config);
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > 0);
    browser = DashboardIT.chromium(dir);
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (server != null) {
      server.close();
    }
  }

  private static String text(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  @Test
  void showsWhatAConnectedGrpcJsClientWillIgnoreBeforeItNacksAnything() {
    browser.get("http://127.0.0.1:" + server.adminPort() + "/");
    await().atMost(Duration.ofSeconds(20)).until(() -> text("client-kinds").equals("No connected client of a known kind."));
    assertThat(browser.findElement(By.id("attention-none")).isDisplayed()).isTrue();
    assertThat(browser.findElement(By.id("att-client-warnings")).isDisplayed()).isFalse();

    try (RecordingAdsClient grpcJs = new RecordingAdsClient(server.xdsPort()).openSotw()) {
      grpcJs.send(DiscoveryRequest.newBuilder()
          .setNode(Node.newBuilder().setId("js-1").setCluster("shop-js").setUserAgentName("gRPC Node Pure JS"))
          .setTypeUrl(XdsType.CLUSTER.typeUrl()).build());

      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
        assertThat(text("client-kinds")).isEqualTo("Connected: 1 grpc-js.");
        assertThat(browser.findElement(By.id("attention-none")).isDisplayed()).isFalse();
        assertThat(browser.findElements(By.cssSelector("#client-warnings tbody tr")).stream().map(e -> e.getText()))
            .containsExactly("endpoints of cluster 'greeter': endpoint weights: 1 grpc-js client will ignore them "
                + "(grpc-js: round robin treats endpoints alike; ring hash uses them) [client.ignored] (warning)");
      });
    }
  }
}
