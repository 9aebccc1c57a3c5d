package io.signalbox.source.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.source.FakeClock;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The registry source over hand-driven time: sweeps run only when the test asks. */
class RegistrySourceTest {

  static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  static final Duration TTL = Duration.ofSeconds(30);
  /** Long enough that the scheduled sweep never runs during a test. */
  static final Duration NEVER = Duration.ofHours(1);

  final FakeClock clock = new FakeClock(T0);
  final FakeLeases leases = new FakeLeases();
  final List<SourceState> published = new CopyOnWriteArrayList<>();
  RegistrySource source;

  RegistrySource started() {
    source = new RegistrySource(leases, TTL, clock, NEVER);
    source.start(published::add);
    return source;
  }

  @AfterEach
  void close() {
    if (source != null) {
      source.close();
    }
  }

  static Registration registration(String cluster, String address, int port, String zone, int weight) {
    return new Registration(cluster, address, port, zone, weight, Map.of());
  }

  SourceState last() {
    return published.get(published.size() - 1);
  }

  @Test
  void publishesAnEmptyFreshStateAtStart() {
    started();

    assertThat(published).hasSize(1);
    assertThat(last().sourceId()).isEqualTo("registry");
    assertThat(last().health()).isEqualTo(SourceHealth.FRESH);
    assertThat(last().endpoints()).isEmpty();
  }

  @Test
  void aRegistrationIsAReadyEndpointWithItsZoneWeightAndOrigin() {
    started();

    RegistrySource.Registered r =
        (RegistrySource.Registered) source.register(registration("orders", "10.0.0.1", 8080, "b", 5), "pods");

    assertThat(r.created()).isTrue();
    assertThat(r.changed()).isTrue();
    assertThat(r.lease().expiresAt()).isEqualTo(T0.plus(TTL));
    assertThat(last().endpoints()).containsExactly(Map.entry("orders", List.of(
        new EndpointSpec("10.0.0.1", 8080, "b", 5, 0, EndpointState.READY, "registry:orders/10.0.0.1:8080 by pods"))));
    assertThat(last().generation()).isEqualTo(2);
  }

  @Test
  void anIpv6RegistrationWithoutATokenNamesNoRegistrant() {
    started();

    source.register(registration("orders", "fd00::1", 8080, "", 1), null);

    assertThat(last().endpoints().get("orders")).extracting(EndpointSpec::origin)
        .containsExactly("registry:orders/[fd00::1]:8080");
  }

  @Test
  void renewingWithTheSameContentExtendsTheLeaseAndPublishesNothing() {
    started();
    source.register(registration("orders", "10.0.0.1", 8080, "b", 5), "pods");
    clock.advance(Duration.ofSeconds(20));

    RegistrySource.Registered renewal =
        (RegistrySource.Registered) source.register(registration("orders", "10.0.0.1", 8080, "b", 5), "pods");

    assertThat(renewal.created()).isFalse();
    assertThat(renewal.changed()).isFalse();
    assertThat(renewal.lease().createdAt()).isEqualTo(T0);
    assertThat(renewal.lease().expiresAt()).isEqualTo(T0.plusSeconds(50));
    assertThat(published).hasSize(2);
  }

  @Test
  void renewingWithOtherContentPublishesTheNewContent() {
    started();
    source.register(registration("orders", "10.0.0.1", 8080, "b", 5), "pods");

    RegistrySource.Registered renewal =
        (RegistrySource.Registered) source.register(registration("orders", "10.0.0.1", 8080, "c", 7), "pods");

    assertThat(renewal.changed()).isTrue();
    assertThat(published).hasSize(3);
    assertThat(last().endpoints().get("orders")).extracting(EndpointSpec::zone, EndpointSpec::weight)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("c", 7));
  }

  @Test
  void anExpiredLeaseLeavesTheStateAtTheNextSweep() {
    started();
    source.register(registration("orders", "10.0.0.1", 8080, "", 1), "pods");
    clock.advance(Duration.ofSeconds(10));
    source.register(registration("orders", "10.0.0.2", 8080, "", 1), "pods");

    clock.advance(Duration.ofSeconds(20)); // the first lease is due now, the second in 10 s
    source.sweepNow();

    assertThat(last().endpoints().get("orders")).extracting(EndpointSpec::address).containsExactly("10.0.0.2");
    assertThat(leases.all()).extracting(Lease::address).containsExactly("10.0.0.2");

    clock.advance(Duration.ofSeconds(10));
    source.sweepNow();
    assertThat(last().endpoints()).isEmpty();
    assertThat(source.leases()).isEmpty();
  }

  @Test
  void aRenewedLeaseDoesNotExpire() {
    started();
    source.register(registration("orders", "10.0.0.1", 8080, "", 1), "pods");
    clock.advance(Duration.ofSeconds(29));
    source.register(registration("orders", "10.0.0.1", 8080, "", 1), "pods");

    clock.advance(Duration.ofSeconds(29));
    source.sweepNow();

    assertThat(last().endpoints().get("orders")).hasSize(1);
  }

  @Test
  void deregisteringRemovesTheEndpointAndSaysWhetherThereWasOne() {
    started();
    source.register(registration("orders", "10.0.0.1", 8080, "", 1), "pods");

    assertThat(source.deregister("orders", "10.0.0.1", 8080)).isTrue();
    assertThat(source.deregister("orders", "10.0.0.1", 8080)).isFalse();

    assertThat(last().endpoints()).isEmpty();
    assertThat(leases.all()).isEmpty();
  }

  @Test
  void startsFromStoredLeasesDroppingThoseThatExpiredMeanwhile() {
    leases.put(new Lease("orders", "10.0.0.1", 8080, "a", 3, Map.of("v", "1"), "pods", T0.minusSeconds(60),
        T0.minusSeconds(1)));
    leases.put(new Lease("orders", "10.0.0.2", 8080, "a", 3, Map.of("v", "1"), "pods", T0.minusSeconds(60),
        T0.plusSeconds(5)));

    started();

    assertThat(published).hasSize(1);
    assertThat(last().endpoints().get("orders")).extracting(EndpointSpec::address).containsExactly("10.0.0.2");
    assertThat(source.leases()).extracting(Lease::expiresAt).containsExactly(T0.plusSeconds(5));
  }

  @Test
  void followsLeasesAnotherReplicaWroteAtTheNextSweep() {
    started();

    leases.put(new Lease("orders", "10.0.0.9", 8080, "", 1, Map.of(), "", T0, T0.plusSeconds(30)));
    source.sweepNow();

    assertThat(last().endpoints().get("orders")).extracting(EndpointSpec::address).containsExactly("10.0.0.9");
  }

  @Test
  void keepsItsLastStateAndGoesStaleWhileTheStoreIsDownThenRecovers() {
    started();
    source.register(registration("orders", "10.0.0.1", 8080, "", 1), "pods");
    int before = published.size();

    leases.down(true);
    clock.advance(Duration.ofSeconds(60)); // the lease is due, but an outage must not expire it
    source.sweepNow();
    source.sweepNow();

    assertThat(published).hasSize(before + 1);
    assertThat(last().health()).isEqualTo(SourceHealth.STALE);
    assertThat(last().endpoints().get("orders")).hasSize(1);
    assertThat(last().problems()).singleElement().hasToString("registry: store unavailable; keeping the last known"
        + " leases: snapshot store unavailable (expire leases): connection refused [source.unavailable]");
    assertThatThrownBy(() -> source.register(registration("orders", "10.0.0.2", 8080, "", 1), "pods"))
        .isInstanceOf(Leases.Unavailable.class);
    assertThat(source.leases()).extracting(Lease::address).containsExactly("10.0.0.1");

    leases.down(false);
    source.sweepNow();

    assertThat(last().health()).isEqualTo(SourceHealth.FRESH);
    assertThat(last().endpoints()).isEmpty();
  }

  @Test
  void isFailedWhenTheStoreIsDownAtStart() {
    leases.down(true);

    started();

    assertThat(last().health()).isEqualTo(SourceHealth.FAILED);
    assertThat(last().endpoints()).isEmpty();
    leases.down(false);
    source.sweepNow();
    assertThat(last().health()).isEqualTo(SourceHealth.FRESH);
  }

  @Test
  void theScheduledSweepExpiresLeasesWithoutBeingAsked() {
    source = new RegistrySource(leases, TTL, clock, Duration.ofMillis(20));
    source.start(published::add);
    source.register(registration("orders", "10.0.0.1", 8080, "", 1), "pods");

    clock.advance(TTL);

    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> last().endpoints().isEmpty());
  }

  @Test
  void anErrorInTheSweepIsFailedWithItsReasonAndTheNextSweepRecovers() {
    source = new RegistrySource(leases, TTL, clock, Duration.ofMillis(50));
    source.start(published::add);
    source.register(registration("orders", "10.0.0.1", 8080, "a", 1), "pods");

    leases.failWith(new AssertionError("injected failure"));

    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> last().health() == SourceHealth.FAILED);
    assertThat(last().problems()).extracting(io.signalbox.validation.Violation::toString).containsExactly(
        "registry: the source's thread failed (java.lang.AssertionError: injected failure); restarting in 50 ms; "
            + "keeping the last known leases [source.failed]");
    assertThat(last().endpoints()).containsOnlyKeys("orders");
    leases.failWith(null);
    // The schedule survived the Error: a later sweep succeeds on its own.
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> last().health() == SourceHealth.FRESH);
    assertThat(last().problems()).isEmpty();
    assertThat(last().endpoints()).containsOnlyKeys("orders");
  }
}
