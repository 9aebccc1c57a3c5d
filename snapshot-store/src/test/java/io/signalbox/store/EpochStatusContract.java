package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link SnapshotStore} does with an epoch's status; run for each store by the subclasses. */
public abstract class EpochStatusContract {

  protected final Clock clock = Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC);
  protected SnapshotStore store;

  protected abstract SnapshotStore openStore(Clock clock);

  @BeforeEach
  void open() {
    store = openStore(clock);
    store.append(EnvelopeSealer.because("startup"));
  }

  @AfterEach
  void close() {
    store.close();
  }

  private EpochRecord first() {
    return store.epoch(1).orElseThrow();
  }

  @Test
  void replaceStatusReplacesTheExpectedStatusOnly() {
    assertThat(store.replaceStatus(1, EpochStatus.ACTIVE, EpochStatus.SUPERSEDED, "replaced by a newer epoch"))
        .isTrue();
    assertThat(first().status()).isEqualTo(EpochStatus.SUPERSEDED);
    assertThat(first().reason()).isEqualTo("replaced by a newer epoch");

    assertThat(store.replaceStatus(1, EpochStatus.ACTIVE, EpochStatus.SUPERSEDED, "again")).isFalse();
    assertThat(first().reason()).isEqualTo("replaced by a newer epoch");
  }

  @Test
  void aStatusAnotherWriterGaveIsNotOverwritten() {
    store.setStatus(1, EpochStatus.SAFE, "held by 3 client(s) with no NACK");

    assertThat(store.replaceStatus(1, EpochStatus.ACTIVE, EpochStatus.SUPERSEDED, "replaced by a newer epoch"))
        .isFalse();
    assertThat(first().status()).isEqualTo(EpochStatus.SAFE);
    assertThat(first().reason()).isEqualTo("held by 3 client(s) with no NACK");
  }

  @Test
  void anEpochThatIsNotStoredIsNotReplaced() {
    assertThat(store.replaceStatus(42, EpochStatus.ACTIVE, EpochStatus.SUPERSEDED, "")).isFalse();
    assertThat(store.epoch(42)).isEmpty();
  }
}
