package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link LeaseStore} promises; run against each store by the subclasses. */
public abstract class LeaseStoreContract {

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

  protected static StoredLease lease(String cluster, String address, int port, int ttlSeconds) {
    return new StoredLease(cluster, address, port, "a", 1, Map.of(), "pods", T0, T0.plusSeconds(ttlSeconds));
  }

  /** A lease of {@code web/10.0.0.1:80} declaring {@code capacityRps} (null: none), registered at T0. */
  private static StoredLease withCapacity(Integer capacityRps, int ttlSeconds) {
    return new StoredLease("web", "10.0.0.1", 80, "a", 1, Map.of(), "pods", T0, T0.plusSeconds(ttlSeconds),
        capacityRps);
  }

  @Test
  void roundTripsEveryFieldInEndpointOrder() {
    StoredLease full = new StoredLease("web", "::1", 8443, "eu-1b", 250,
        Map.of("version", "1.4.2", "team", "payments \"core\"", "signalbox.io/capacity-rps", "7"), "pods", T0,
        T0.plusSeconds(30), 1_000_000);
    store.leases().put(lease("web", "10.0.0.2", 80, 30));
    store.leases().put(full);
    store.leases().put(lease("api", "10.0.0.9", 80, 30));
    store.leases().put(lease("web", "10.0.0.2", 79, 30));

    assertThat(store.leases().all()).containsExactly(
        lease("api", "10.0.0.9", 80, 30), lease("web", "10.0.0.2", 79, 30), lease("web", "10.0.0.2", 80, 30), full);
  }

  @Test
  void aRenewalReplacesTheContentAndExpiryButKeepsTheFirstRegistrationTime() {
    store.leases().put(lease("web", "10.0.0.1", 80, 30));
    StoredLease renewal = new StoredLease("web", "10.0.0.1", 80, "b", 7, Map.of("k", "v"), "ops",
        T0.plusSeconds(20), T0.plusSeconds(50));

    StoredLease stored = store.leases().put(renewal);

    StoredLease expected = new StoredLease("web", "10.0.0.1", 80, "b", 7, Map.of("k", "v"), "ops", T0,
        T0.plusSeconds(50));
    assertThat(stored).isEqualTo(expected);
    assertThat(store.leases().all()).containsExactly(expected);
  }

  @Test
  void keepsTheCapacityApartFromTheMetadataAndAbsentWhenNoneWasDeclared() {
    StoredLease declared = new StoredLease("web", "10.0.0.1", 80, "a", 1, Map.of("team", "payments"), "pods", T0,
        T0.plusSeconds(30), 1);
    StoredLease none = new StoredLease("web", "10.0.0.2", 80, "a", 1, Map.of("team", "payments"), "pods", T0,
        T0.plusSeconds(30), null);

    assertThat(store.leases().put(declared)).isEqualTo(declared);
    assertThat(store.leases().put(none)).isEqualTo(none);

    assertThat(store.leases().all()).containsExactly(declared, none);
    assertThat(store.leases().all()).extracting(StoredLease::capacityRps).containsExactly(1, null);
  }

  @Test
  void aRenewalStoresTheCapacityItDeclaresAndOnlyThat() {
    store.leases().put(withCapacity(100, 30));

    assertThat(store.leases().put(withCapacity(250, 40))).isEqualTo(withCapacity(250, 40));
    assertThat(store.leases().all()).containsExactly(withCapacity(250, 40));

    assertThat(store.leases().put(withCapacity(250, 50))).isEqualTo(withCapacity(250, 50));
    assertThat(store.leases().all()).containsExactly(withCapacity(250, 50));

    // A renewal replaces the content: one declaring no capacity leaves none stored.
    assertThat(store.leases().put(withCapacity(null, 60))).isEqualTo(withCapacity(null, 60));
    assertThat(store.leases().all()).containsExactly(withCapacity(null, 60));

    assertThat(store.leases().put(withCapacity(7, 70))).isEqualTo(withCapacity(7, 70));
    assertThat(store.leases().all()).containsExactly(withCapacity(7, 70));
  }

  @Test
  void anExpiredLeaseIsReturnedWithItsCapacity() {
    store.leases().put(withCapacity(300, 5));
    store.leases().put(lease("web", "10.0.0.2", 80, 30));

    assertThat(store.leases().expire(T0.plusSeconds(5))).containsExactly(withCapacity(300, 5));
    assertThat(store.leases().all()).containsExactly(lease("web", "10.0.0.2", 80, 30));
  }

  @Test
  void removesOneLeaseAndSaysWhetherThereWasOne() {
    store.leases().put(lease("web", "10.0.0.1", 80, 30));
    store.leases().put(lease("web", "10.0.0.1", 81, 30));

    assertThat(store.leases().remove("web", "10.0.0.1", 80)).isTrue();
    assertThat(store.leases().remove("web", "10.0.0.1", 80)).isFalse();
    assertThat(store.leases().remove("api", "10.0.0.1", 81)).isFalse();
    assertThat(store.leases().all()).containsExactly(lease("web", "10.0.0.1", 81, 30));
  }

  @Test
  void expiresLeasesDueAtOrBeforeNowAndReturnsThem() {
    store.leases().put(lease("web", "10.0.0.3", 80, 10));
    store.leases().put(lease("web", "10.0.0.1", 80, 5));
    store.leases().put(lease("web", "10.0.0.2", 80, 11));

    assertThat(store.leases().expire(T0.plusSeconds(4))).isEmpty();
    assertThat(store.leases().expire(T0.plusSeconds(10))).containsExactly(
        lease("web", "10.0.0.1", 80, 5), lease("web", "10.0.0.3", 80, 10));
    assertThat(store.leases().all()).containsExactly(lease("web", "10.0.0.2", 80, 11));
  }

  /** A lease of {@code web/10.0.0.1:80} declaring {@code naming}, registered at T0. */
  private static StoredLease withNaming(StoredLease.Naming naming, int ttlSeconds) {
    return new StoredLease("web", "10.0.0.1", 80, "a", 1, Map.of(), "pods", T0, T0.plusSeconds(ttlSeconds), null,
        naming);
  }

  @Test
  void keepsTheHostnameHashKeyAndAdditionalAddressesInTheirOrderAndReplacesThemOnRenewal() {
    StoredLease.Naming dualStack = new StoredLease.Naming("web-0.orders.local", "Pod/shop/web-0",
        List.of("fd00::1", "fd00::10", "10.0.1.1"));

    assertThat(store.leases().put(withNaming(dualStack, 30))).isEqualTo(withNaming(dualStack, 30));
    assertThat(store.leases().all()).containsExactly(withNaming(dualStack, 30));

    // A renewal replaces the content: one declaring none leaves none stored.
    assertThat(store.leases().put(withNaming(StoredLease.Naming.NONE, 40))).isEqualTo(
        withNaming(StoredLease.Naming.NONE, 40));
    assertThat(store.leases().all()).extracting(StoredLease::naming).containsExactly(StoredLease.Naming.NONE);

    store.leases().put(withNaming(dualStack, 50));
    assertThat(store.leases().expire(T0.plusSeconds(50))).containsExactly(withNaming(dualStack, 50));
  }
}
