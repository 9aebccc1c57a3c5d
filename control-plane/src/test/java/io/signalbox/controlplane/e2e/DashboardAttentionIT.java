package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;

/**
 * The dashboard's "Needs attention" in Debian's headless Chromium, in the words of {@code GET
 * /api/v1/status} that {@code signalbox status} prints: what is held and what releases it (a held
 * update or config reload can be confirmed by an operator and shows no button to a viewer), and
 * where the served configuration differs from the inputs and how to go forward (a freeze, a
 * rollback), each gone once released.
 */
class DashboardAttentionIT extends DashboardFleet {

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
}
