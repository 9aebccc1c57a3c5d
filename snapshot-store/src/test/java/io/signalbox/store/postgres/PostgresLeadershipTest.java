package io.signalbox.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.store.EnvelopeSealer;
import io.signalbox.store.LeadershipContract;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoredIntent;
import io.signalbox.store.embedded.PostgresExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresLeadershipTest extends LeadershipContract {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();
  private String url;

  @Override
  protected SnapshotStore openStore(Clock clock) {
    url = postgres.newDatabase();
    return PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), clock);
  }

  @Test
  void listenersHearOfEpochsReleasesAndIntentChangesFromAnotherConnection() throws Exception {
    AtomicInteger heard = new AtomicInteger();
    try (SnapshotStore other = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(),
        Clock.systemUTC()); AutoCloseable listening = store.listen(heard::incrementAndGet)) {
      // The listener fires once on connecting; wait for that, then for each change.
      await().atMost(Duration.ofSeconds(10)).until(() -> heard.get() >= 1);
      int before = heard.get();
      other.append(EnvelopeSealer.because("from another replica"));
      await().atMost(Duration.ofSeconds(10)).until(() -> heard.get() > before);
      int afterEpoch = heard.get();
      other.release(0, 1);
      await().atMost(Duration.ofSeconds(10)).until(() -> heard.get() > afterEpoch);
      int afterRelease = heard.get();
      other.intent().freeze(new StoredIntent.Freeze("alice", "", java.time.Instant.now()));
      await().atMost(Duration.ofSeconds(10)).until(() -> heard.get() > afterRelease);
    }
    assertThat(heard.get()).isGreaterThanOrEqualTo(4);
  }
}
