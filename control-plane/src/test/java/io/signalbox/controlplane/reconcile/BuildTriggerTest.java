package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The writer's trigger. Lower bounds on waiting are exact (the trigger may not build sooner);
 * upper bounds are generous, since the machine running the test may be busy.
 */
class BuildTriggerTest {

  private final ExecutorService writer = Executors.newSingleThreadExecutor();
  private BuildTrigger trigger;

  @AfterEach
  void stop() {
    if (trigger != null) {
      trigger.stop();
    }
    writer.shutdownNow();
  }

  /** A ticker the test moves by hand: the decisions below take no real time at all. */
  private static final class FakeTicker implements java.util.function.LongSupplier {
    long nanos = 1_000_000_000L;

    @Override
    public long getAsLong() {
      return nanos;
    }

    void advance(Duration d) {
      nanos += d.toNanos();
    }
  }

  private static final Duration MS = Duration.ofMillis(1);

  @Test
  void decidesFromTheInjectedTickerAlone() throws Exception {
    FakeTicker ticker = new FakeTicker();
    trigger = new BuildTrigger(Duration.ofMillis(100), Duration.ofMillis(250), ticker);
    assertThat(trigger.nanosUntilDue()).as("nothing pending").isEqualTo(-1);

    trigger.signal("first");
    assertThat(trigger.nanosUntilDue()).as("a leading edge is due at once").isZero();
    assertThat(trigger.await()).isEqualTo("first");

    ticker.advance(MS.multipliedBy(10));
    trigger.signal("second");
    assertThat(trigger.nanosUntilDue()).as("right after a build: debounce").isEqualTo(MS.multipliedBy(100).toNanos());
    for (int i = 0; i < 4; i++) {
      ticker.advance(MS.multipliedBy(60));
      trigger.signal("steady " + i);
    }
    // 240 ms into a burst that was never quiet for 100 ms: maxDelay (250 ms) decides.
    assertThat(trigger.nanosUntilDue()).isEqualTo(MS.multipliedBy(10).toNanos());
    ticker.advance(MS.multipliedBy(10));
    assertThat(trigger.nanosUntilDue()).isZero();
    assertThat(trigger.await()).as("the burst's first cause").isEqualTo("second");
  }

  @Test
  void aStoreRetryHoldsEvenALeadingEdge() {
    FakeTicker ticker = new FakeTicker();
    trigger = new BuildTrigger(Duration.ofMillis(100), Duration.ofSeconds(1), ticker);
    ticker.advance(Duration.ofSeconds(5));

    trigger.retryAfter(Duration.ofSeconds(1), "store retry");

    assertThat(trigger.nanosUntilDue()).isEqualTo(Duration.ofSeconds(1).toNanos());
    ticker.advance(Duration.ofSeconds(1));
    assertThat(trigger.nanosUntilDue()).isZero();
  }

  @Test
  void aScheduledWakeUpBecomesABuildWhenItIsDue() throws Exception {
    FakeTicker ticker = new FakeTicker();
    trigger = new BuildTrigger(Duration.ofMillis(100), Duration.ofSeconds(1), ticker);

    trigger.wakeIn(Duration.ofSeconds(30));

    assertThat(trigger.nanosUntilDue()).isEqualTo(Duration.ofSeconds(30).toNanos());
    ticker.advance(Duration.ofSeconds(30));
    assertThat(trigger.nanosUntilDue()).isZero();
    assertThat(trigger.await()).isEqualTo("scheduled endpoint lifecycle change");
    assertThat(trigger.nanosUntilDue()).isEqualTo(-1);
  }

  @Test
  void buildsAChangeAfterAQuietSpellAtOnceEvenWithALongDebounce() {
    trigger = new BuildTrigger(Duration.ofMinutes(10), Duration.ofMinutes(20));
    CompletableFuture<String> build = nextBuild();

    trigger.signal("edit");

    await().atMost(Duration.ofSeconds(30)).until(build::isDone);
    assertThat(build.join()).isEqualTo("edit");
  }

  @Test
  void aChangeRightAfterABuildWaitsForTheBurstToSettle() throws Exception {
    FakeTicker ticker = new FakeTicker();
    trigger = new BuildTrigger(Duration.ofMillis(400), Duration.ofMinutes(1), ticker);
    trigger.signal("first");
    assertThat(nextBuild().get(30, TimeUnit.SECONDS)).isEqualTo("first");

    trigger.signal("second");

    assertThat(trigger.nanosUntilDue()).as("not before the debounce").isEqualTo(MS.multipliedBy(400).toNanos());
    ticker.advance(MS.multipliedBy(399));
    assertThat(trigger.nanosUntilDue()).isEqualTo(MS.toNanos());
    ticker.advance(MS);
    assertThat(nextBuild().get(30, TimeUnit.SECONDS)).isEqualTo("second");
  }

  @Test
  void aBurstCostsOneBuildAtItsStartAndOneAfterIt() throws Exception {
    FakeTicker ticker = new FakeTicker();
    trigger = new BuildTrigger(Duration.ofMillis(300), Duration.ofMinutes(1), ticker);
    trigger.signal("burst 0");
    assertThat(nextBuild().get(30, TimeUnit.SECONDS)).isEqualTo("burst 0");
    for (int i = 1; i <= 5; i++) {
      ticker.advance(MS.multipliedBy(10));
      trigger.signal("burst " + i);
    }
    ticker.advance(MS.multipliedBy(300));

    assertThat(nextBuild().get(30, TimeUnit.SECONDS)).as("the rest of the burst, in one build").isEqualTo("burst 1");
    assertThat(trigger.nanosUntilDue()).as("nothing pending after it").isEqualTo(-1);
  }

  @Test
  void aSteadyStreamOfChangesIsBuiltNoLaterThanMaxDelay() throws Exception {
    FakeTicker ticker = new FakeTicker();
    trigger = new BuildTrigger(Duration.ofMillis(300), Duration.ofMillis(600), ticker);
    trigger.signal("start");
    assertThat(nextBuild().get(30, TimeUnit.SECONDS)).isEqualTo("start");

    // Never quiet for the debounce: only maxDelay can let this build through.
    for (int elapsed = 0; elapsed < 600; elapsed += 50) {
      trigger.signal("steady");
      assertThat(trigger.nanosUntilDue()).as("%d ms into the stream", elapsed).isPositive();
      ticker.advance(MS.multipliedBy(50));
    }

    assertThat(trigger.nanosUntilDue()).as("maxDelay after the first change").isZero();
    assertThat(nextBuild().get(30, TimeUnit.SECONDS)).isEqualTo("steady");
  }

  private CompletableFuture<String> nextBuild() {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return trigger.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }, writer);
  }
}
