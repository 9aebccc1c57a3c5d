package io.signalbox.source.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import io.signalbox.source.FakeClock;
import io.signalbox.source.SourceState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A registration's hostname, hash key and additional addresses (issue 44): checked by the rules
 * endpoint files meet, served on the endpoint, and refused when another registration of the
 * cluster answers on one of its addresses.
 */
class RegistryNamingTest {

  static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

  final FakeLeases leases = new FakeLeases();
  final List<SourceState> published = new CopyOnWriteArrayList<>();
  RegistrySource source;

  @BeforeEach
  void start() {
    source = new RegistrySource(leases, Duration.ofSeconds(30), new FakeClock(T0), Duration.ofHours(1));
    source.start(published::add);
  }

  @AfterEach
  void close() {
    source.close();
  }

  static Registration.Parsed parse(String endpoint, String hostname, String hashKey, List<String> additional) {
    return Registration.parse("orders", endpoint, new Registration.Body(null, null, null, null, hostname, hashKey,
        additional));
  }

  static Registration registration(String endpoint, Naming naming) {
    return ((Registration.Ok) parse(endpoint, naming.hostname(), naming.hashKey(), naming.additionalAddresses()))
        .registration();
  }

  List<EndpointSpec> served() {
    return published.get(published.size() - 1).endpoints().getOrDefault("orders", List.of());
  }

  @Test
  void aBodyWithoutThemDeclaresNone() {
    assertThat(parse("10.0.0.1:8080", null, null, null))
        .isEqualTo(new Registration.Ok(new Registration("orders", "10.0.0.1", 8080, "", 1, Map.of())));
  }

  @Test
  void eachIsCheckedByTheEndpointRulesOfFiles() {
    assertThat(parse("10.0.0.1:8080", "web_0.local", null, null)).isEqualTo(new Registration.Invalid("hostname",
        "bad_hostname", "hostname must be a DNS name, was 'web_0.local'"));
    assertThat(parse("10.0.0.1:8080", null, "k".repeat(257), null)).isEqualTo(new Registration.Invalid("hashKey",
        "bad_hashKey", "hashKey must be at most 256 characters, was 257"));
    assertThat(parse("10.0.0.1:8080", null, "a\tb", null)).isEqualTo(new Registration.Invalid("hashKey",
        "bad_hashKey", "hashKey must not contain control characters"));
    assertThat(parse("10.0.0.1:8080", null, null, List.of("fd00::1", "web-0.local"))).isEqualTo(
        new Registration.Invalid("additionalAddresses", "bad_additionalAddresses",
            "additionalAddresses must be IPv4 or IPv6 addresses, was 'web-0.local'"));
    assertThat(parse("10.0.0.1:8080", null, null, List.of("fd00::1", "fd00::2", "fd00::3", "fd00::4", "fd00::5",
        "fd00::6", "fd00::7", "fd00::8", "fd00::9"))).isEqualTo(new Registration.Invalid("additionalAddresses",
        "bad_additionalAddresses", "additionalAddresses may have at most 8 entries, was 9"));
  }

  @Test
  void theEndpointIsServedWithThem() {
    Naming naming = new Naming("web-0.orders.local", "Pod/shop/web-0", List.of("fd00::1"));

    source.register(registration("10.0.0.1:8080", naming), "pods");

    EndpointSpec served = served().get(0);
    assertThat(served.hostname()).isEqualTo("web-0.orders.local");
    assertThat(served.hashKey()).isEqualTo("Pod/shop/web-0");
    assertThat(served.additionalAddresses()).containsExactly("fd00::1");
    assertThat(served.keys()).containsExactly("10.0.0.1:8080", "[fd00::1]:8080");
    assertThat(leases.all().get(0).naming()).isEqualTo(naming);
  }

  @Test
  void anAdditionalAddressThatIsAnotherRegistrationsAddressIsRefusedAndNothingIsWritten() {
    source.register(registration("[fd00::1]:8080", Naming.NONE), "pods");
    int before = published.size();

    RegistrySource.Outcome outcome =
        source.register(registration("10.0.0.2:8080", new Naming("", "", List.of("fd00::1"))), "pods");

    assertThat(outcome).isEqualTo(new RegistrySource.Refused("duplicate.endpoint",
        "orders/10.0.0.2:8080: duplicate endpoint [fd00::1]:8080 (an additional address) (also orders/[fd00::1]:8080)"));
    assertThat(leases.all()).extracting(Lease::endpoint).containsExactly("[fd00::1]:8080");
    assertThat(published).hasSize(before);
  }

  @Test
  void anAddressThatIsAnotherRegistrationsAdditionalAddressIsRefused() {
    source.register(registration("10.0.0.1:8080", new Naming("", "", List.of("fd00::1"))), "pods");

    RegistrySource.Outcome outcome = source.register(registration("[fd00::1]:8080", Naming.NONE), "pods");

    assertThat(outcome).isEqualTo(new RegistrySource.Refused("duplicate.endpoint",
        "orders/[fd00::1]:8080: duplicate endpoint [fd00::1]:8080 (also orders/10.0.0.1:8080)"));
  }

  @Test
  void twoAdditionalAddressesSharedAreRefusedAsIsOneListedTwice() {
    source.register(registration("10.0.0.1:8080", new Naming("", "", List.of("fd00::1"))), "pods");

    assertThat(source.register(registration("10.0.0.2:8080", new Naming("", "", List.of("fd00::1"))), "pods"))
        .isEqualTo(new RegistrySource.Refused("duplicate.endpoint", "orders/10.0.0.2:8080: duplicate endpoint"
            + " [fd00::1]:8080 (an additional address) (also orders/10.0.0.1:8080)"));
    assertThat(source.register(registration("10.0.0.3:8080", new Naming("", "", List.of("fd00::3", "fd00::3"))),
        "pods")).isEqualTo(new RegistrySource.Refused("duplicate.endpoint", "orders/10.0.0.3:8080: duplicate"
            + " endpoint [fd00::3]:8080 (an additional address) (also orders/10.0.0.3:8080)"));
  }

  @Test
  void aHashKeyAnotherRegistrationHoldsIsRefusedByTheSameRule() {
    source.register(registration("10.0.0.1:8080", new Naming("", "web-0", List.of())), "pods");

    assertThat(source.register(registration("10.0.0.2:8080", new Naming("", "web-0", List.of())), "pods"))
        .isEqualTo(new RegistrySource.Refused("endpoint.hash-key",
            "orders/10.0.0.2:8080: duplicate hash key 'web-0' (also orders/10.0.0.1:8080)"));
  }

  @Test
  void renewingWithNewAdditionalAddressesReplacesItsOwnAndTheSameAddressInAnotherClusterIsNoConflict() {
    source.register(registration("10.0.0.1:8080", new Naming("", "", List.of("fd00::1"))), "pods");

    assertThat(source.register(registration("10.0.0.1:8080", new Naming("", "", List.of("fd00::2"))), "pods"))
        .isInstanceOf(RegistrySource.Registered.class);
    assertThat(source.register(new Registration("payments", "fd00::2", 8080, "", 1, Map.of()), "pods"))
        .isInstanceOf(RegistrySource.Registered.class);
    assertThat(served()).extracting(EndpointSpec::additionalAddresses).containsExactly(List.of("fd00::2"));
  }
}
