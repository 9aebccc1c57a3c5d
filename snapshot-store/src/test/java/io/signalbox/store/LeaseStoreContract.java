package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
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

  @Test
  void roundTripsEveryFieldInEndpointOrder() {
    StoredLease full = new StoredLease("web", "::1", 8443, "eu-1b", 250,
        Map.of("version", "1.4.2", "team", "payments \"core\""), "pods", T0, T0.plusSeconds(30));
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
}
