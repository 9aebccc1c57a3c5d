package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.signalbox.controlplane.admin.AnsweringAdsClient;
import io.signalbox.controlplane.admin.RunningSignalbox;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** drain, undrain, eject, rollback, freeze and unfreeze against a whole Signalbox. */
class OperatorCommandsTest {

  @TempDir Path dir;
  RunningSignalbox sb;

  @BeforeEach
  void start() {
    sb = RunningSignalbox.start(dir, 3, "", "maxEjectionPercent: 40");
  }

  @AfterEach
  void stop() {
    sb.close();
  }

  private String stateOf(String endpoint) throws Exception {
    for (JsonNode e : new ObjectMapper().readTree(Cli.against(sb, "endpoints", "greeter", "-o", "json").out())) {
      if (e.get("endpoint").asText().equals(endpoint)) {
        return e.get("state").asText() + " " + e.get("override").asText();
      }
    }
    return null;
  }

  @Test
  void drainAnswersAtOnceWithTheDeadlineAndUndrainEndsIt() throws Exception {
    Cli.Run drain = Cli.against(sb, "drain", "greeter", "127.0.0.1:50002", "--deadline", "2m", "--reason", "kernel");

    assertThat(drain.exit()).as(drain.err()).isZero();
    assertThat(drain.out()).isEqualTo("draining greeter/127.0.0.1:50002 (deadline 2m)\n");
    // The override is stored at once; the epoch that carries it is published right after.
    await().atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(stateOf("127.0.0.1:50002")).isEqualTo("DRAINING drained by anonymous"));

    Cli.Run undrain = Cli.against(sb, "undrain", "greeter", "127.0.0.1:50002");

    assertThat(undrain.exit()).as(undrain.err()).isZero();
    assertThat(undrain.out()).isEqualTo("undrained greeter/127.0.0.1:50002\n");
    await().atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(stateOf("127.0.0.1:50002")).isEqualTo("READY null"));
  }

  @Test
  void drainWaitFollowsTheDrainToSafeToRemove() throws Exception {
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "web-1", "web")) {
      Cli.Run run = Cli.against(sb, "drain", "greeter", "127.0.0.1:50003", "--deadline", "1s", "--wait");

      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.outLines()).last().isEqualTo("safe to remove greeter/127.0.0.1:50003: deadline passed; no load reporting");
      assertThat(run.outLines()).allMatch(line -> line.startsWith("draining greeter/127.0.0.1:50003: ")
          || line.equals("safe to remove greeter/127.0.0.1:50003: deadline passed; no load reporting"));
      // Each progress line is printed once, when it changes.
      assertThat(run.outLines()).doesNotHaveDuplicates();
    }
  }

  @Test
  void drainWaitExitsThreeWhenTheTimeoutPassesFirst() {
    Cli.Run run = Cli.against(sb, "drain", "greeter", "127.0.0.1:50001", "--deadline", "1h", "--wait",
        "--timeout", "1s");

    assertThat(run.exit()).isEqualTo(3);
    assertThat(run.errLines()).singleElement().asString()
        .matches("signalbox: timed out after 1s waiting for greeter/127\\.0\\.0\\.1:50001 to be safe to remove: "
            + "(waiting for the epoch that drains it|0 of 0 clients acknowledged epoch \\d+), "
            + "(1h|59m\\d+s) until the deadline");
  }

  @Test
  void drainWaitAsJsonPrintsTheFinalProgress() throws Exception {
    Cli.Run run = Cli.against(sb, "drain", "greeter", "127.0.0.1:50001", "--deadline", "0s", "--wait", "-o", "json");

    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode progress = new ObjectMapper().readTree(run.out());
    assertThat(progress.get("safeToRemove").asBoolean()).isTrue();
    assertThat(progress.get("endpoint").asText()).isEqualTo("127.0.0.1:50001");
  }

  @Test
  void ejectIsRefusedPastTheEjectionCapWithTheServersMessage() {
    Cli.Run first = Cli.against(sb, "eject", "greeter", "127.0.0.1:50001", "--reason", "5xx");
    Cli.Run second = Cli.against(sb, "eject", "greeter", "127.0.0.1:50002");

    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out()).isEqualTo("ejected greeter/127.0.0.1:50001 for 30s\n");
    assertThat(second.exit()).isEqualTo(1);
    assertThat(second.out()).isEmpty();
    assertThat(second.err()).isEqualTo("signalbox: ejecting 127.0.0.1:50002 would eject 2 of 3 endpoints of cluster "
        + "'greeter' (66%), more than maxEjectionPercent 40\n");
  }

  @Test
  void freezeAndUnfreezeShowInStatus() throws Exception {
    Cli.Run freeze = Cli.against(sb, "freeze", "--reason", "incident 7");

    assertThat(freeze.exit()).as(freeze.err()).isZero();
    assertThat(freeze.out()).isEqualTo("frozen: no epoch is published until 'signalbox unfreeze'\n");
    assertThat(new ObjectMapper().readTree(Cli.against(sb, "status", "-o", "json").out()).get("frozen").asBoolean())
        .isTrue();

    Cli.Run unfreeze = Cli.against(sb, "unfreeze", "-o", "json");

    assertThat(unfreeze.exit()).as(unfreeze.err()).isZero();
    assertThat(new ObjectMapper().readTree(unfreeze.out()).get("frozen").asBoolean()).isFalse();
  }

  @Test
  void rollbackToAnEpochPublishesANewOne() {
    long before = sb.epoch();
    sb.publishNewEpoch();

    Cli.Run run = Cli.against(sb, "rollback", "--to", Long.toString(before), "--reason", "bad route");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).matches("rolling back to epoch " + before + ": \\d+ resources? restored in a new epoch\n");
  }

  @Test
  void rollbackToAnUnknownEpochFails() {
    Cli.Run run = Cli.against(sb, "rollback", "--to", "999");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("signalbox: no epoch 999\n");
  }
}
