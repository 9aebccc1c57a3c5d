package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link OverrideStore} promises; run against each store by the subclasses. */
public abstract class OverrideStoreContract {

  protected static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  protected final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
  protected SnapshotStore store;

  protected abstract SnapshotStore openStore(Clock clock);

  @BeforeEach
  void open() {
    store = openStore(clock);
  }

  @AfterEach
  void close() {
    store.close();
  }

  protected static StoredOverride drain(String address, String reason) {
    return new StoredOverride("web", address, 8080, "drain", null, "alice", reason, T0, T0.plusSeconds(30));
  }

  @Test
  void keepsActiveOverridesAndReplacesOneOfTheSameEndpointAndKind() {
    store.overrides().put(drain("10.0.0.1", "first"));
    store.overrides().put(drain("10.0.0.2", "other"));
    store.overrides().put(drain("10.0.0.1", "second"));
    store.overrides().put(new StoredOverride("web", "10.0.0.1", 8080, "weight", 5, "bob", "", T0, null));

    assertThat(store.overrides().active())
        .extracting(StoredOverride::address, StoredOverride::kind, StoredOverride::reason, StoredOverride::value)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("10.0.0.2", "drain", "other", null),
            org.assertj.core.groups.Tuple.tuple("10.0.0.1", "drain", "second", null),
            org.assertj.core.groups.Tuple.tuple("10.0.0.1", "weight", "", 5));
    assertThat(store.overrides().active().get(1).deadline()).isEqualTo(T0.plusSeconds(30));
  }

  @Test
  void removingDeactivatesButTheHistoryStillCounts() {
    store.overrides().put(new StoredOverride("web", "10.0.0.1", 8080, "eject", null, "bob", "", T0, T0.plusSeconds(30)));
    store.overrides().put(new StoredOverride("web", "10.0.0.1", 8080, "eject", null, "bob", "", T0, T0.plusSeconds(60)));

    assertThat(store.overrides().remove("web", "10.0.0.1", 8080, "eject")).isTrue();
    assertThat(store.overrides().remove("web", "10.0.0.1", 8080, "eject")).isFalse();
    assertThat(store.overrides().active()).isEmpty();
    assertThat(store.overrides().count("web", "10.0.0.1", 8080, "eject")).isEqualTo(2);
    assertThat(store.overrides().count("web", "10.0.0.2", 8080, "eject")).isZero();
  }
}
