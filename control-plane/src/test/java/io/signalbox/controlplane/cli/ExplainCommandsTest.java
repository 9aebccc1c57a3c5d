package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.admin.RunningSignalbox;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands that explain: a drain held by a guard says so at once, {@code why} tells an
 * endpoint's causes, {@code diff} what changed between epochs. One endpoint, so draining it trips
 * the min-eligible guard.
 */
class ExplainCommandsTest {

  static final String HELD = "cluster 'greeter': would have 0 eligible endpoint(s), fewer than minEligible 1 (has 1)";

  @TempDir Path dir;
  RunningSignalbox sb;
  String origin;

  @BeforeEach
  void start() {
    sb = RunningSignalbox.start(dir, 1, "", "");
    origin = "file:" + dir.toAbsolutePath().normalize().resolve("endpoints.yaml");
  }

  @AfterEach
  void stop() {
    sb.close();
  }

  @Test
  void aDrainHeldByAGuardFailsAtOnceNamingTheRuleAndWhatToDo() {
    Cli.Run run = Cli.against(sb, "drain", "greeter", "127.0.0.1:50001", "--deadline", "3s");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("signalbox: drain of greeter/127.0.0.1:50001 is held by guard.min-eligible: "
        + HELD + "; the drain is stored; 'signalbox confirm greeter' lets the held update through, or another "
        + "endpoint of greeter becoming eligible; 'signalbox undrain greeter 127.0.0.1:50001' withdraws it\n");
  }

  // The words of status's "released by" row (status.holds): one account on every surface (issue 42).
  static final String RELEASES = "  released by 'signalbox confirm greeter' lets the held update through, or another "
      + "endpoint of greeter becoming eligible; 'signalbox undrain greeter 127.0.0.1:50001' withdraws it; waiting";

  @Test
  void aHeldDrainWithWaitSaysOnceWhatHoldsItAndWhatReleasesItAndFinishesWhenConfirmed() throws Exception {
    // A deadline long enough to confirm before it passes: a drain held past it fails (below).
    Cli.Started drain = Cli.start(sb, "drain", "greeter", "127.0.0.1:50001", "--deadline", "10s", "--wait",
        "--timeout", "1m");
    await().atMost(Duration.ofSeconds(10)).until(() -> drain.out().toString().contains("held by"));

    Cli.Run confirm = Cli.against(sb, "confirm", "greeter", "--reason", "last one, on purpose");

    assertThat(confirm.exit()).as(confirm.err()).isZero();
    assertThat(confirm.out()).isEqualTo("confirmed the held update of greeter\n");
    Cli.Run run = drain.await(Duration.ofSeconds(30));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.outLines()).startsWith("draining greeter/127.0.0.1:50001: held by guard.min-eligible: " + HELD,
        RELEASES);
    assertThat(run.outLines()).last().isEqualTo("safe to remove greeter/127.0.0.1:50001: deadline passed; no client holds the cluster");
    assertThat(run.outLines()).doesNotHaveDuplicates();
  }

  @Test
  void aDrainStillHeldWhenItsOwnDeadlinePassesSaysSoAndExits3BeforeTheTimeout() throws Exception {
    Cli.Run run = Cli.start(sb, "drain", "greeter", "127.0.0.1:50001", "--deadline", "1s", "--wait",
        "--timeout", "10m").await(Duration.ofSeconds(60));

    assertThat(run.exit()).isEqualTo(3);
    assertThat(run.outLines()).containsExactly(
        "draining greeter/127.0.0.1:50001: held by guard.min-eligible: " + HELD, RELEASES);
    assertThat(run.err()).matches(java.util.regex.Pattern.quote("signalbox: drain of greeter/127.0.0.1:50001 passed "
        + "its deadline (") + "\\S+Z" + java.util.regex.Pattern.quote(") while still held by guard.min-eligible: "
        + HELD + "; it never took effect; the drain is stored; 'signalbox confirm greeter' lets the held update "
        + "through, or another endpoint of greeter becoming eligible; 'signalbox undrain greeter 127.0.0.1:50001' "
        + "withdraws it") + "\n");
  }

  @Test
  void whyNamesTheGuardTheOverrideAndTheSourceNewestFirst() {
    long epoch = sb.epoch();
    Cli.against(sb, "drain", "greeter", "127.0.0.1:50001", "--reason", "kernel");

    Cli.Run run = Cli.against(sb, "why", "greeter", "127.0.0.1:50001");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.outLines()).hasSize(5);
    assertThat(run.outLines().get(0)).isEqualTo("greeter/127.0.0.1:50001: READY in epoch " + epoch + ", from " + origin);
    assertThat(run.outLines().get(1)).matches("WHEN +KIND +CAUSE");
    assertThat(run.outLines().get(2)).matches("\\S+Z +guard +" + java.util.regex.Pattern.quote(HELD
        + " [guard.min-eligible]; held until confirmed (signalbox confirm greeter)"));
    assertThat(run.outLines().get(3)).matches("\\S+Z +override +drained by anonymous: kernel; deadline \\S+Z");
    assertThat(run.outLines().get(4)).matches(" +source +" + java.util.regex.Pattern.quote("from " + origin + " (FRESH)"));
  }

  @Test
  void whyTellsAPublishedDrainByItsTransitionAndEpoch() {
    sb.publishNewEpoch(); // a second endpoint, so the drain is not held
    Cli.Run drained = Cli.against(sb, "drain", "greeter", "127.0.0.1:50002");
    assertThat(drained.exit()).as(drained.err()).isZero();
    long epoch = sb.epoch();

    // The transition reaches the audit log after the epoch is published.
    await().atMost(Duration.ofSeconds(10)).until(() ->
        Cli.against(sb, "why", "greeter", "127.0.0.1:50002").out().contains("transition"));
    Cli.Run run = Cli.against(sb, "why", "greeter", "127.0.0.1:50002");

    assertThat(run.outLines().get(0)).isEqualTo("greeter/127.0.0.1:50002: DRAINING in epoch " + epoch + ", from "
        + origin);
    assertThat(run.out()).contains("READY -> DRAINING in epoch " + epoch + " (drained by anonymous)")
        .contains("DRAINING since epoch " + epoch);
  }

  @Test
  void whyOfAClusterCountsItsEndpointsByState() {
    Cli.Run run = Cli.against(sb, "why", "greeter");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.outLines().get(0)).isEqualTo("greeter: 1 endpoint in epoch " + sb.epoch() + " (1 READY)");
  }

  @Test
  void whyOfAnUnknownEndpointSuggestsTheClosest() {
    Cli.Run run = Cli.against(sb, "why", "greeter", "127.0.0.1:50011");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("signalbox: cluster 'greeter' has no endpoint 127.0.0.1:50011; did you mean "
        + "'127.0.0.1:50001'?\n");
  }

  @Test
  void diffListsChangedResourcesAndEndpointTransitions() {
    long before = sb.epoch();
    long after = sb.publishNewEpoch();

    Cli.Run run = Cli.against(sb, "diff", Long.toString(before), Long.toString(after));

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.outLines()).containsExactly(
        "epoch " + before + " -> " + after + ": 0 added, 0 removed, 1 changed, 1 endpoint transition",
        "~ ENDPOINT/greeter",
        "  greeter/127.0.0.1:50002: new -> READY");
  }

  @Test
  void diffNamesTheEndpointAndFieldOfAChangedEndpointResource() {
    long before = sb.epoch();
    RunningSignalbox.write(dir, "endpoints.yaml",
        "clusters:\n  greeter:\n    - { address: 127.0.0.1, port: 50001, zone: a, weight: 5 }\n");
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.epoch() > before);
    long after = sb.epoch();

    Cli.Run run = Cli.against(sb, "diff", Long.toString(before), Long.toString(after));

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.outLines()).containsExactly(
        "epoch " + before + " -> " + after + ": 0 added, 0 removed, 1 changed, 0 endpoint transitions",
        "~ ENDPOINT/greeter 127.0.0.1:50001 weight 1 -> 5");
  }

  @Test
  void diffOfAnUnknownEpochFails() {
    Cli.Run run = Cli.against(sb, "diff", "1", "999");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("signalbox: no epoch 999\n");
  }
}
