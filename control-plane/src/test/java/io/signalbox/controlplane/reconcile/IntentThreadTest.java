package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.signalbox.store.StoreUnavailableException;
import io.signalbox.store.StoredIntent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one thread operator changes run on: nothing is accepted before the intent is read, an applied
 * change asks the writer to rebuild with its own cause, a refusal or an outage does not, and
 * changes run one at a time in order. Time comes from the injected clock, as the store keeps it.
 */
class IntentThreadTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00.123456789Z");
  private static final StoredIntent.Freeze FREEZE = new StoredIntent.Freeze("ops", "window", T0);

  private final List<String> rebuilds = new CopyOnWriteArrayList<>();
  private final IntentThread thread = new IntentThread(Clock.fixed(T0, ZoneOffset.UTC), rebuilds::add);

  @AfterEach
  void close() {
    thread.close();
  }

  private static Intent frozen() {
    return new Intent(FREEZE, List.of(), java.util.Map.of(), java.util.Map.of(), java.util.Map.of(), null, List.of());
  }

  @Test
  void noChangeIsAcceptedBeforeTheIntentIsReadAndTheAnswerSaysWhy() {
    thread.unreadable("connection refused");

    Outcome<String> outcome = thread.change(current -> Outcome.applied("done"));

    assertThat(outcome).isEqualTo(new Outcome.Unavailable<String>(
        "operator intent has not been read from the store yet: connection refused"));
    assertThat(rebuilds).isEmpty();
  }

  @Test
  void anAppliedChangeSeesTheIntentAsReadAndAsksForARebuild() {
    thread.replace(Intent.NONE);
    thread.unreadable(null);

    Outcome<Boolean> outcome = thread.change(current -> {
      thread.replace(frozen());
      return Outcome.applied(current.frozen());
    });

    assertThat(outcome).isEqualTo(Outcome.applied(false));
    assertThat(thread.intent()).isEqualTo(frozen());
    assertThat(rebuilds).containsExactly("operator change");
  }

  @Test
  void theRebuildsCauseIsSaidByTheAppliedValue() {
    thread.replace(Intent.NONE);

    thread.change(current -> Outcome.applied(12L), epoch -> "rollback to epoch " + epoch);

    assertThat(rebuilds).containsExactly("rollback to epoch 12");
  }

  @Test
  void aRefusalChangesNothingAndRebuildsNothing() {
    thread.replace(Intent.NONE);

    Outcome<String> outcome = thread.change(current -> Outcome.refused("not_frozen", "nothing is frozen"));

    assertThat(outcome).isEqualTo(new Outcome.Refused<String>("not_frozen", "nothing is frozen"));
    assertThat(rebuilds).isEmpty();
  }

  @Test
  void aStoreOutageDuringAChangeIsUnavailableNotAnError() {
    thread.replace(Intent.NONE);

    Outcome<String> outcome = thread.change(current -> {
      throw new StoreUnavailableException("connection refused", null);
    });

    assertThat(outcome).isEqualTo(new Outcome.Unavailable<String>("connection refused"));
    assertThat(rebuilds).isEmpty();
  }

  @Test
  void aBugInAChangeReachesTheCaller() {
    thread.replace(Intent.NONE);

    assertThatThrownBy(() -> thread.change(current -> {
      throw new IllegalStateException("bad value 7");
    })).isInstanceOf(IllegalStateException.class).hasMessage("bad value 7");
  }

  @Test
  void changesRunOneAtATimeOnTheirThreadInOrder() throws Exception {
    thread.replace(Intent.NONE);
    CountDownLatch firstRunning = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> ran = new CopyOnWriteArrayList<>();
    Thread first = new Thread(() -> thread.run(() -> {
      firstRunning.countDown();
      release.await(10, TimeUnit.SECONDS);
      ran.add("first on " + Thread.currentThread().getName());
      return Outcome.applied(1);
    }));
    first.start();
    assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
    thread.background("second", current -> {
      ran.add("second");
      return current;
    });

    assertThat(ran).as("the second waits for the first").isEmpty();
    release.countDown();
    first.join(10_000);
    await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() == 2);
    assertThat(ran).containsExactly("first on interventions", "second");
  }

  @Test
  void backgroundWorkReplacesTheCopyAndAnOutageLeavesItForTheNextBuild() {
    thread.replace(Intent.NONE);

    thread.background("fail", current -> {
      throw new StoreUnavailableException("connection refused", null);
    });
    thread.background("freeze", current -> frozen());

    await().atMost(Duration.ofSeconds(10)).until(() -> frozen().equals(thread.intent()));
  }

  @Test
  void backgroundWorkBeforeTheIntentIsReadIsDropped() throws Exception {
    List<String> ran = new CopyOnWriteArrayList<>();
    thread.background("early", current -> {
      ran.add("early");
      return current;
    });

    assertThat(thread.run(() -> Outcome.applied("after"))).isEqualTo(Outcome.applied("after"));
    assertThat(ran).isEmpty();
    assertThat(thread.intent()).isNull();
  }

  @Test
  void nowIsTheClocksTimeToTheMicrosecondAsTheStoreKeepsIt() {
    assertThat(thread.now()).isEqualTo(Instant.parse("2026-12-01T10:00:00.123456Z"));
  }

  @Test
  void untilReadTheUnreadableReasonSaysSo() {
    assertThat(thread.unreadable()).isEqualTo("not read yet");
    assertThat(thread.intent()).isNull();
  }
}
