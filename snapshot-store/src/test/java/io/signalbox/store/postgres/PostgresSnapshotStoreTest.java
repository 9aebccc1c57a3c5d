package io.signalbox.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.EnvelopeSealer;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.EpochSealer;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.embedded.PostgresExtension;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresSnapshotStoreTest {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
  private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
  private PostgresSnapshotStore store;

  @BeforeEach
  void openStoreOnAFreshDatabase() {
    store = postgres.openStore(clock);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void emptyStoreHasNoEpochs() {
    assertThat(store.latest()).isEmpty();
    assertThat(store.load(1)).isEmpty();
    assertThat(store.epoch(1)).isEmpty();
    assertThat(store.epochs(10, Long.MAX_VALUE)).isEmpty();
    assertThat(store.lastEpoch()).isZero();
  }

  @Test
  void allocatesEpochsFromOneAndReturnsWhatTheSealerBuilt() {
    SnapshotEnvelope first = store.append(EnvelopeSealer.because("startup"));
    SnapshotEnvelope second = store.append(EnvelopeSealer.because("config reload"));

    assertThat(first.getEpoch()).isEqualTo(1);
    assertThat(second.getEpoch()).isEqualTo(2);
    assertThat(store.latest()).contains(second);
    assertThat(store.load(1)).contains(first);
    assertThat(store.lastEpoch()).isEqualTo(2);
  }

  @Test
  void recordsEachEpochsMetadata() {
    store.append(EnvelopeSealer.because("startup"));

    assertThat(store.epoch(1)).contains(
        new EpochRecord(1, 0, NOW, "hash-1", EpochStatus.ACTIVE, "", "startup"));
  }

  @Test
  void listsEpochsNewestFirstInPages() {
    for (int i = 0; i < 5; i++) {
      store.append(EnvelopeSealer.because("change " + i));
    }

    List<EpochRecord> firstPage = store.epochs(2, Long.MAX_VALUE);
    List<EpochRecord> secondPage = store.epochs(2, firstPage.get(1).epoch());
    List<EpochRecord> lastPage = store.epochs(2, secondPage.get(1).epoch());

    assertThat(firstPage).extracting(EpochRecord::epoch).containsExactly(5L, 4L);
    assertThat(secondPage).extracting(EpochRecord::epoch).containsExactly(3L, 2L);
    assertThat(lastPage).extracting(EpochRecord::epoch).containsExactly(1L);
  }

  @Test
  void setsStatusWithItsReason() {
    store.append(EnvelopeSealer.because("startup"));

    store.setStatus(1, EpochStatus.REJECTED, "NACKed by 3 clients");

    assertThat(store.epoch(1)).get()
        .extracting(EpochRecord::status, EpochRecord::reason)
        .containsExactly(EpochStatus.REJECTED, "NACKed by 3 clients");
  }

  @Test
  void refusesStatusForAnEpochThatDoesNotExist() {
    assertThatThrownBy(() -> store.setStatus(42, EpochStatus.SAFE, ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no epoch 42");
  }

  @Test
  void aSealerThatFailsLeavesNoEpochAndNoGap() {
    store.append(EnvelopeSealer.because("startup"));

    assertThatThrownBy(() -> store.append(new EpochSealer<SnapshotEnvelope>() {
      @Override
      public SnapshotEnvelope seal(long epoch) {
        throw new IllegalStateException("translation failed");
      }

      @Override
      public SnapshotEnvelope envelope(SnapshotEnvelope sealed) {
        return sealed;
      }
    })).isInstanceOf(IllegalStateException.class).hasMessage("translation failed");

    assertThat(store.lastEpoch()).isEqualTo(1);
    assertThat(store.append(EnvelopeSealer.because("retry")).getEpoch()).isEqualTo(2);
  }

  @Test
  void refusesAnEnvelopeSealedForAnotherEpoch() {
    EpochSealer<SnapshotEnvelope> wrong = new EpochSealer<>() {
      @Override
      public SnapshotEnvelope seal(long epoch) {
        return EnvelopeSealer.because("bug").seal(epoch + 10);
      }

      @Override
      public SnapshotEnvelope envelope(SnapshotEnvelope sealed) {
        return sealed;
      }
    };

    assertThatThrownBy(() -> store.append(wrong))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("sealer returned epoch 11 for allocated epoch 1");
    assertThat(store.latest()).isEmpty();
    assertThat(store.lastEpoch()).isZero();
  }

  @Test
  void pruneKeepsTheNewestAndTheNamedEpochsAndNeverReusesNumbers() {
    for (int i = 0; i < 6; i++) {
      store.append(EnvelopeSealer.because("change " + i));
    }

    int deleted = store.prune(2, Set.of(2L));

    assertThat(deleted).isEqualTo(3);
    assertThat(store.epochs(10, Long.MAX_VALUE)).extracting(EpochRecord::epoch).containsExactly(6L, 5L, 2L);
    assertThat(store.append(EnvelopeSealer.because("after prune")).getEpoch()).isEqualTo(7);
  }

  @Test
  void refusesToPruneTheNewestEpoch() {
    assertThatThrownBy(() -> store.prune(0, Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("keepLast must be at least 1 (the newest epoch is what a restart serves), was 0");
  }

  @Test
  void anotherStoreOnTheSameDatabaseSeesTheEpochsAndContinuesNumbering() {
    store.append(EnvelopeSealer.because("startup"));
    String url = postgres.newDatabase();
    try (PostgresSnapshotStore first = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), clock)) {
      first.append(EnvelopeSealer.because("startup"));
    }

    try (PostgresSnapshotStore reopened = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), clock)) {
      assertThat(reopened.latest()).map(SnapshotEnvelope::getEpoch).contains(1L);
      assertThat(reopened.append(EnvelopeSealer.because("restart")).getEpoch()).isEqualTo(2);
    }
  }
}
