package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.CircuitBreakersSpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.HeaderMatchSpec;
import io.signalbox.model.HealthCheckSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.LeastRequestSpec;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.OutlierDetectionSpec;
import io.signalbox.model.RingHashSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.VirtualHostSpec;
import io.signalbox.model.WeightedClusterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class DesiredStateValidatorPropertiesTest {

  private final DesiredStateValidator validator = new DesiredStateValidator();

  @Property(tries = 500, seed = "42")
  void neverThrowsWhateverTheInput(@ForAll("anyState") DesiredState state) {
    ValidationResult result = validator.validate(state);

    assertThat(result).isNotNull();
    assertThat(result.violations()).allSatisfy(v -> {
      assertThat(v.rule()).isNotBlank();
      assertThat(v.message()).isNotBlank();
    });
  }

  @Property(tries = 500, seed = "42")
  void validValuesProduceNoErrors(@ForAll("validState") DesiredState state) {
    assertThat(validator.validate(state).errors()).isEmpty();
  }

  // ---- arbitrary (mostly broken) states -------------------------------------------------------

  private static Arbitrary<String> garbage() {
    return Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(12),
            Arbitraries.of("", " ", "greeter", "web", "ns/svc:80", "10.0.0.1", "::1", "[::1]", "a..b", "/", "*", "1.2.3.999"))
        .injectNull(0.2);
  }

  private static Arbitrary<Integer> ints() {
    return Arbitraries.integers().edgeCases(e -> e.includeOnly(Integer.MIN_VALUE, -1, 0, 1, 65535, 65536, Integer.MAX_VALUE))
        .injectNull(0.3);
  }

  private static Arbitrary<Duration> durations() {
    return Arbitraries.longs().between(-10_000, 10_000_000).map(Duration::ofMillis).injectNull(0.3);
  }

  private static Arbitrary<ListenerSpec> listeners() {
    return Combinators.combine(garbage(), Arbitraries.of(true, false), garbage(), ints(), garbage()).as(ListenerSpec::new);
  }

  private static Arbitrary<RouteSpec> routes() {
    Arbitrary<HeaderMatchSpec> headers = Combinators.combine(garbage(), garbage(), garbage(), Arbitraries.of(true, false).injectNull(0.5))
        .as(HeaderMatchSpec::new);
    Arbitrary<RouteMatchSpec> match = Combinators.combine(garbage(), garbage(), headers.list().ofMaxSize(3).injectNull(0.3))
        .as(RouteMatchSpec::new)
        .injectNull(0.1);
    Arbitrary<WeightedClusterSpec> weighted = Combinators.combine(garbage(), Arbitraries.integers()).as(WeightedClusterSpec::new);
    return Combinators.combine(match, garbage(), weighted.list().ofMaxSize(3).injectNull(0.3), durations()).as(RouteSpec::new);
  }

  private static Arbitrary<RouteConfigSpec> routeConfigs() {
    Arbitrary<VirtualHostSpec> hosts = Combinators.combine(
            garbage(), garbage().filter(s -> s != null).list().ofMaxSize(3).injectNull(0.2), routes().list().ofMaxSize(3).injectNull(0.2))
        .as(VirtualHostSpec::new);
    return Combinators.combine(garbage(), hosts.list().ofMaxSize(3).injectNull(0.2)).as(RouteConfigSpec::new);
  }

  private static Arbitrary<ClusterSpec> clusters() {
    Arbitrary<OutlierDetectionSpec> od = Combinators.combine(ints(), durations(), durations(), ints()).as(OutlierDetectionSpec::new).injectNull(0.5);
    Arbitrary<CircuitBreakersSpec> cb = Combinators.combine(ints(), ints(), ints(), ints()).as(CircuitBreakersSpec::new).injectNull(0.5);
    Arbitrary<HealthCheckSpec> hc = Combinators.combine(durations(), durations(), ints(), ints(), garbage(), Arbitraries.of(true, false).injectNull(0.3))
        .as(HealthCheckSpec::new)
        .injectNull(0.5);
    Arbitrary<Long> longs = Arbitraries.longs().injectNull(0.3);
    Arbitrary<RingHashSpec> ring = Combinators.combine(longs, longs).as(RingHashSpec::new).injectNull(0.5);
    Arbitrary<LeastRequestSpec> lr = ints().map(LeastRequestSpec::new).injectNull(0.5);
    Arbitrary<ClusterSpec> head = Combinators.combine(
            garbage(), Arbitraries.of(LbPolicy.class).injectNull(0.3), durations(), durations(), ints(), od, cb, hc)
        .as((name, lb, ct, ss, mep, o, c, h) -> new ClusterSpec(name,
            new ClusterSpec.Balancing(lb, ss, null, null, null, null, null),
            new ClusterSpec.Connection(ct, c, null, h),
            new ClusterSpec.Ejection(mep, o),
            null,
            null, null));
    return Combinators.combine(head, ring, lr, durations(), ints(), ints())
        .as((c, r, l, dt, me, mr) -> c
            .with(new ClusterSpec.Balancing(c.balancing().lbPolicy(), c.balancing().slowStart(), null, r, l, null, null))
            .with(new ClusterSpec.Guards(me, mr, dt)));
  }

  private static Arbitrary<EndpointSpec> endpoints() {
    return Combinators.combine(
            garbage(),
            Arbitraries.integers(),
            garbage(),
            Arbitraries.integers(),
            Arbitraries.integers().between(-2, 200),
            Arbitraries.of(EndpointState.class).injectNull(0.2),
            garbage())
        .as(EndpointSpec::new);
  }

  @Provide
  Arbitrary<DesiredState> anyState() {
    Arbitrary<EndpointSpec> endpoint = endpoints();
    // Duplicates are likely: endpoints repeat from a small pool as often as they are fresh.
    Arbitrary<List<EndpointSpec>> endpointLists = Arbitraries.oneOf(
        endpoint.list().ofMaxSize(5),
        endpoint.list().ofMinSize(1).ofMaxSize(2).map(l -> { List<EndpointSpec> d = new ArrayList<>(l); d.addAll(l); return d; }));
    Arbitrary<Map<String, List<EndpointSpec>>> endpointMap =
        Arbitraries.maps(garbage().filter(s -> s != null), endpointLists).ofMaxSize(4).injectNull(0.1);
    return Combinators.combine(
            garbage(),
            listeners().list().ofMaxSize(4).injectNull(0.1),
            routeConfigs().list().ofMaxSize(3).injectNull(0.1),
            clusters().list().ofMaxSize(4).injectNull(0.1),
            endpointMap)
        .as(DesiredState::new);
  }

  // ---- states built only from valid values ----------------------------------------------------

  /** One to three '/'-separated segments, none empty, '.' or '..'. */
  private static Arbitrary<String> validNames() {
    Arbitrary<String> segment = Arbitraries.strings().withChars("abcxyz019._-:").ofMinLength(1).ofMaxLength(5)
        .filter(s -> !s.equals(".") && !s.equals(".."));
    return segment.list().ofMinSize(1).ofMaxSize(3).map(parts -> String.join("/", parts));
  }

  private static Arbitrary<ClusterSpec> validClusters(String name) {
    Arbitrary<LbPolicy> policy = Arbitraries.of(LbPolicy.class).injectNull(0.2);
    return Combinators.combine(
            policy,
            Arbitraries.longs().between(1, 3_600_000).map(Duration::ofMillis).injectNull(0.3),
            Arbitraries.integers().between(0, 100).injectNull(0.3),
            Arbitraries.integers().between(1, 100).injectNull(0.3),
            Arbitraries.integers().between(0, 3).injectNull(0.3),
            Arbitraries.longs().between(1, 1024).injectNull(0.3))
        .as((lb, ct, mep, od5xx, minEligible, ringMin) -> {
          LbPolicy effective = lb == null ? LbPolicy.ROUND_ROBIN : lb;
          boolean slowStartOk = effective == LbPolicy.ROUND_ROBIN || effective == LbPolicy.LEAST_REQUEST;
          return new ClusterSpec(name,
              new ClusterSpec.Balancing(
                  lb,
                  slowStartOk ? Duration.ofSeconds(30) : null,
                  null,
                  effective == LbPolicy.RING_HASH && ringMin != null ? new RingHashSpec(ringMin, ringMin * 2) : null,
                  effective == LbPolicy.LEAST_REQUEST ? new LeastRequestSpec(2) : null,
                  null,
                  null),
              new ClusterSpec.Connection(
                  ct,
                  new CircuitBreakersSpec(1024, 1024, null, 3),
                  null,
                  new HealthCheckSpec(Duration.ofSeconds(1), Duration.ofSeconds(5), 3, 2, "/healthz", false)),
              new ClusterSpec.Ejection(
                  mep, new OutlierDetectionSpec(od5xx, Duration.ofSeconds(10), Duration.ofSeconds(30), mep)),
              new ClusterSpec.Guards(minEligible, 50, Duration.ofSeconds(30)),
              null, null);
        });
  }

  private static Arbitrary<List<EndpointSpec>> validEndpoints() {
    Arbitrary<String> addresses = Arbitraries.oneOf(
        Arbitraries.integers().between(0, 255).map(i -> "10.0.0." + i),
        Arbitraries.integers().between(1, 0xffff).map(i -> "fd00::" + Integer.toHexString(i)),
        Arbitraries.strings().withChars("abcxyz019").ofMinLength(1).ofMaxLength(8).map(s -> "h" + s + ".svc.local"));
    Arbitrary<EndpointSpec> endpoint = Combinators.combine(
            addresses,
            Arbitraries.integers().between(1, 65535),
            Arbitraries.of("a", "b", ""),
            Arbitraries.integers().between(1, 10_000),
            Arbitraries.of(EndpointState.class))
        .as((a, port, zone, weight, state) -> new EndpointSpec(a, port, zone, weight, 0, state, "registry"));
    return endpoint.list().ofMinSize(1).ofMaxSize(6).uniqueElements(EndpointSpec::key);
  }

  @Provide
  Arbitrary<DesiredState> validState() {
    return validNames().list().ofMinSize(1).ofMaxSize(4).uniqueElements().flatMap(names -> {
      Arbitrary<List<ClusterSpec>> declared = Combinators.combine(names.stream().map(n -> validClusters(n)).toList())
          .as(List::copyOf);
      Arbitrary<List<List<EndpointSpec>>> endpointLists = validEndpoints().list().ofSize(names.size());
      Arbitrary<Integer> declaredCount = Arbitraries.integers().between(0, names.size());
      return Combinators.combine(declared, endpointLists, declaredCount).as((clusters, lists, count) -> {
        Map<String, List<EndpointSpec>> endpoints = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
          endpoints.put(names.get(i), lists.get(i));
        }
        List<RouteSpec> routes = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
          routes.add(new RouteSpec(
              new RouteMatchSpec(i == 0 ? "" : null, i == 0 ? null : "/" + i, List.of(new HeaderMatchSpec("x-id", null, null, true))),
              i % 2 == 0 ? names.get(i) : null,
              i % 2 == 0 ? null : List.of(new WeightedClusterSpec(names.get(i), 1), new WeightedClusterSpec(names.get(0), 10_000)),
              Duration.ofSeconds(i)));
        }
        RouteConfigSpec config = new RouteConfigSpec(
            "web", List.of(new VirtualHostSpec("web", List.of("*", "web.example"), routes)));
        List<ListenerSpec> listeners = List.of(
            new ListenerSpec("grpc", true, null, null, "web"),
            new ListenerSpec("ingress", false, "0.0.0.0", 10000, "web"),
            new ListenerSpec("ingress6", false, "::", 10000, "web"));
        return new DesiredState("signalbox.yaml", listeners, List.of(config), clusters.subList(0, count), endpoints);
      });
    });
  }
}
