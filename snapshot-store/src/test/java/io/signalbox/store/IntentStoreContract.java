package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link IntentStore} promises; run against each store by the subclasses. */
public abstract class IntentStoreContract {

  protected static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
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

  protected static StoredIntent.Quarantined quarantined(String name, String version, long restore) {
    return new StoredIntent.Quarantined("ENDPOINT", name, version, restore, "epoch 7 rejected", "signalbox", T0);
  }

  @Test
  void startsEmpty() {
    StoredIntent intent = store.intent().read();
    assertThat(intent.freeze()).isNull();
    assertThat(intent.quarantine()).isEmpty();
    assertThat(intent.confirmations()).isEmpty();
    assertThat(intent.overrides()).isEmpty();
    assertThat(intent.ejections()).isEmpty();
    assertThat(intent.ejectionFreeze()).isNull();
    assertThat(intent.drops()).isEmpty();
  }

  @Test
  void keepsTheFreezeUntilItIsLifted() {
    store.intent().freeze(new StoredIntent.Freeze("alice", "change window", T0));
    store.intent().freeze(new StoredIntent.Freeze("bob", "still frozen", T0.plusSeconds(5)));

    assertThat(store.intent().read().freeze())
        .isEqualTo(new StoredIntent.Freeze("bob", "still frozen", T0.plusSeconds(5)));
    assertThat(store.intent().unfreeze()).isTrue();
    assertThat(store.intent().unfreeze()).isFalse();
    assertThat(store.intent().read().freeze()).isNull();
  }

  @Test
  void replacesAQuarantinedResourceByTypeAndNameAndLiftsOnlyTheVersionItHolds() {
    store.intent().quarantine(List.of(quarantined("web", "v1", 3), quarantined("api", "a1", 3)));
    store.intent().quarantine(List.of(quarantined("web", "v2", 5)));

    assertThat(store.intent().read().quarantine())
        .extracting(StoredIntent.Quarantined::name, StoredIntent.Quarantined::rejectedVersion,
            StoredIntent.Quarantined::restoreEpoch)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("web", "v2", 5L),
            org.assertj.core.groups.Tuple.tuple("api", "a1", 3L));
    assertThat(store.intent().lift("ENDPOINT", "web", "v1")).as("replaced meanwhile").isFalse();
    assertThat(store.intent().lift("ENDPOINT", "web", "v2")).isTrue();
    assertThat(store.intent().lift("ENDPOINT", "web", "v2")).isFalse();
    assertThat(store.intent().read().quarantine()).extracting(StoredIntent.Quarantined::name).containsExactly("api");
  }

  @Test
  void keepsOneConfirmationPerCluster() {
    store.intent().confirm(new StoredIntent.Confirmation("web", "f1", "alice", T0));
    store.intent().confirm(new StoredIntent.Confirmation("web", "f2", "bob", T0.plusSeconds(1)));
    store.intent().confirm(new StoredIntent.Confirmation("api", "f3", "bob", T0));

    assertThat(store.intent().read().confirmations()).containsExactly(
        new StoredIntent.Confirmation("api", "f3", "bob", T0),
        new StoredIntent.Confirmation("web", "f2", "bob", T0.plusSeconds(1)));
    assertThat(store.intent().clearConfirmation("web")).isTrue();
    assertThat(store.intent().clearConfirmation("web")).isFalse();
    assertThat(store.intent().read().confirmations()).extracting(StoredIntent.Confirmation::cluster)
        .containsExactly("api");
  }

  @Test
  void readsActiveOverridesAndCountsEveryEjectionEver() {
    store.overrides().put(new StoredOverride("web", "10.0.0.1", 80, "eject", null, "bob", "", T0, T0.plusSeconds(30)));
    store.overrides().remove("web", "10.0.0.1", 80, "eject");
    store.overrides().put(new StoredOverride("web", "10.0.0.1", 80, "eject", null, "bob", "", T0, T0.plusSeconds(60)));
    store.overrides().put(new StoredOverride("web", "::1", 80, "drain", null, "bob", "", T0, T0.plusSeconds(60)));

    StoredIntent intent = store.intent().read();
    assertThat(intent.overrides()).extracting(StoredOverride::kind).containsExactly("eject", "drain");
    assertThat(intent.ejections()).containsExactly(java.util.Map.entry("web/10.0.0.1:80", 2));
    assertThat(StoredIntent.endpointKey("web", "::1", 80)).isEqualTo("web/[::1]:80");
  }

  @Test
  void everyChangeToTheIntentOrTheOverridesMakesTheRevisionGrow() {
    long r0 = store.intent().revision();
    store.intent().freeze(new StoredIntent.Freeze("alice", "", T0));
    long r1 = store.intent().revision();
    store.intent().quarantine(List.of(quarantined("web", "v1", 3)));
    long r2 = store.intent().revision();
    store.intent().confirm(new StoredIntent.Confirmation("web", "f", "alice", T0));
    long r3 = store.intent().revision();
    store.overrides().put(new StoredOverride("web", "10.0.0.1", 80, "drain", null, "bob", "", T0, T0));
    long r4 = store.intent().revision();
    store.overrides().remove("web", "10.0.0.1", 80, "drain");
    long r5 = store.intent().revision();
    assertThat(store.intent().lift("ENDPOINT", "nothing", "x")).isFalse();
    long unchanged = store.intent().revision();

    assertThat(List.of(r0, r1, r2, r3, r4, r5)).isSorted().doesNotHaveDuplicates();
    assertThat(unchanged).isEqualTo(r5);
    assertThat(store.intent().read().revision()).isEqualTo(r5);
  }

  @Test
  void keepsTheFreezeOfEjectionsApartFromThePublishFreeze() {
    store.intent().freezeEjections(new StoredIntent.Freeze("alice", "incident 12", T0));

    StoredIntent read = store.intent().read();
    assertThat(read.ejectionFreeze()).isEqualTo(new StoredIntent.Freeze("alice", "incident 12", T0));
    assertThat(read.freeze()).isNull();
    long before = store.intent().revision();
    assertThat(store.intent().unfreezeEjections()).isTrue();
    assertThat(store.intent().revision()).isGreaterThan(before);
    assertThat(store.intent().unfreezeEjections()).isFalse();
    assertThat(store.intent().read().ejectionFreeze()).isNull();
  }

  @Test
  void keepsOneDropPerClusterAndCategoryInTheOrderTheyWereFirstSet() {
    store.intent().drop(new StoredIntent.Drop("web", "signalbox_operator", 500_000, "alice", "overload", T0));
    store.intent().drop(new StoredIntent.Drop("web", "batch", 250_000, "alice", "", T0.plusSeconds(1)));
    store.intent().drop(new StoredIntent.Drop("api", "signalbox_operator", 1, "bob", "", T0.plusSeconds(2)));
    // Replacing the first keeps its place: clients apply a cluster's categories in this order.
    store.intent().drop(new StoredIntent.Drop("web", "signalbox_operator", 600_000, "bob", "more", T0.plusSeconds(3)));

    assertThat(store.intent().read().drops()).containsExactly(
        new StoredIntent.Drop("api", "signalbox_operator", 1, "bob", "", T0.plusSeconds(2)),
        new StoredIntent.Drop("web", "signalbox_operator", 600_000, "bob", "more", T0),
        new StoredIntent.Drop("web", "batch", 250_000, "alice", "", T0.plusSeconds(1)));
  }

  @Test
  void undropsOneCategoryOrEveryDropOfACluster() {
    store.intent().drop(new StoredIntent.Drop("web", "a", 10, "alice", "", T0));
    store.intent().drop(new StoredIntent.Drop("web", "b", 20, "alice", "", T0.plusSeconds(1)));
    store.intent().drop(new StoredIntent.Drop("api", "a", 30, "alice", "", T0.plusSeconds(2)));

    long before = store.intent().revision();
    assertThat(store.intent().undrop("web", "a")).isEqualTo(1);
    assertThat(store.intent().revision()).isGreaterThan(before);
    assertThat(store.intent().undrop("web", null)).isEqualTo(1);
    long after = store.intent().revision();
    assertThat(store.intent().undrop("web", null)).isZero();
    assertThat(store.intent().revision()).isEqualTo(after);
    assertThat(store.intent().read().drops()).extracting(StoredIntent.Drop::cluster).containsExactly("api");
  }

  @Test
  void findsTheNewestEpochWithAStatus() {
    assertThat(store.newestWithStatus(EpochStatus.SAFE)).isEmpty();
    for (int i = 0; i < 4; i++) {
      store.append(EnvelopeSealer.because("r" + i));
    }
    store.setStatus(2, EpochStatus.SAFE, "held");
    store.setStatus(3, EpochStatus.SAFE, "held");
    store.setStatus(4, EpochStatus.REJECTED, "nacked");

    assertThat(store.newestWithStatus(EpochStatus.SAFE)).map(EpochRecord::epoch).contains(3L);
    assertThat(store.newestWithStatus(EpochStatus.REJECTED)).map(EpochRecord::epoch).contains(4L);
  }
}
