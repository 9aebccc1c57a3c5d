package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;

/**
 * The dashboard's charts and epoch page in Debian's headless Chromium: the convergence and lag
 * charts draw exactly the API's numbers, and an epoch page shows its diff. Needs attention is
 * {@link DashboardAttentionIT}. Leaves {@code target/dashboard-panels.png}.
 */
class DashboardPanelsIT extends DashboardFleet {

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
