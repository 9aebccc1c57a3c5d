package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.admin.AnsweringAdsClient;
import io.signalbox.controlplane.admin.RunningSignalbox;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code signalbox wait}: exit 0 once the share of clients holds the epoch, 3 when the timeout passes first. */
class WaitCommandTest {

  @TempDir Path dir;
  RunningSignalbox sb;

  @BeforeEach
  void start() {
    sb = RunningSignalbox.start(dir, 2, "", "");
  }

  @AfterEach
  void stop() {
    sb.close();
  }

  private void awaitClientsHold(long epoch, int clients) {
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.server.xds().clients().stream()
        .filter(c -> c.epoch() >= epoch).count() == clients);
  }

  @Test
  void exitsZeroOnceEveryClientHoldsTheEpoch() throws Exception {
    try (AnsweringAdsClient a = new AnsweringAdsClient(sb.server.xdsPort(), "web-1", "web")) {
      long epoch = sb.publishNewEpoch();

      Cli.Run run = Cli.against(sb, "wait", "--epoch", Long.toString(epoch), "--fraction", "0.99", "--timeout", "30s");

      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.outLines()).last().isEqualTo("epoch " + epoch + " held by 1 of 1 client (100%)");
    }
  }

  @Test
  void aClientRefusingTheEpochKeepsTheShareBelowItUntilTheTimeout() throws Exception {
    try (AnsweringAdsClient good = new AnsweringAdsClient(sb.server.xdsPort(), "web-1", "web");
        AnsweringAdsClient bad = new AnsweringAdsClient(sb.server.xdsPort(), "web-2", "web")) {
      awaitClientsHold(sb.epoch(), 2);
      bad.rejectWith = "unsupported";
      long epoch = sb.publishNewEpoch();
      await().atMost(Duration.ofSeconds(10)).until(() -> sb.server.xds().clients().stream()
          .anyMatch(c -> c.nackOf(epoch) != null));
      // The refusing client keeps what it had: it does not hold the epoch, whatever it ACKs after.
      awaitClientsHold(epoch, 1);
      await().atMost(Duration.ofSeconds(10)).until(() -> sb.server.xds().clients().stream()
          .anyMatch(c -> c.refusing() && c.nodeId().equals("web-2")));

      Cli.Run all = Cli.against(sb, "wait", "--epoch", Long.toString(epoch), "--timeout", "1s");
      Cli.Run half = Cli.against(sb, "wait", "--epoch", Long.toString(epoch), "--fraction", "50%", "--timeout", "10s");

      assertThat(all.exit()).isEqualTo(3);
      assertThat(all.outLines()).first().isEqualTo("epoch " + epoch + ": held by 1 of 2 clients (50%), waiting for 100%");
      assertThat(all.err()).isEqualTo("signalbox: timed out after 1s waiting for 100% of clients to hold epoch "
          + epoch + ": held by 1 of 2 clients (50%), waiting for 100%\n");
      assertThat(half.exit()).as(half.err()).isZero();
      assertThat(half.out()).isEqualTo("epoch " + epoch + " held by 1 of 2 clients (50%)\n");
    }
  }

  @Test
  void withNoClientsConnectedItSaysSoRatherThanAHundredPercent() {
    Cli.Run run = Cli.against(sb, "wait");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("epoch " + sb.epoch() + " held: no clients connected\n");
  }

  @Test
  void anEpochNotYetPublishedTimesOutWithExitThree() {
    long future = sb.epoch() + 5;

    Cli.Run run = Cli.against(sb, "wait", "--epoch", Long.toString(future), "--timeout", "1s");

    assertThat(run.exit()).isEqualTo(3);
    assertThat(run.outLines()).first().isEqualTo("epoch " + future + ": not published yet (newest is " + sb.epoch()
        + ")");
    assertThat(run.err()).isEqualTo("signalbox: timed out after 1s waiting for 100% of clients to hold epoch "
        + future + ": not published yet (newest is " + sb.epoch() + ")\n");
  }

  @Test
  void aFractionOutsideZeroToOneIsAUsageError() {
    Cli.Run run = Cli.against(sb, "wait", "--fraction", "1.5");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.errLines()).first().isEqualTo("Invalid value for option '--fraction': expected a share above 0 "
        + "and at most 1 (0.99 or 99%), was '1.5'");
  }
}
