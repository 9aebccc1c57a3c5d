package io.signalbox.validation;

import static io.signalbox.validation.States.CONFIG;
import static io.signalbox.validation.States.apiListener;
import static io.signalbox.validation.States.endpoint;
import static io.signalbox.validation.States.routeConfig;
import static io.signalbox.validation.States.routeTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.RouteConfigSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The validator reuses what it found for unchanged inputs; whatever the history, its result must be
 * exactly that of a fresh validator.
 */
class IncrementalValidationTest {

  private final DesiredStateValidator incremental = new DesiredStateValidator();

  @Test
  void aSequenceOfChangesValidatesExactlyAsFreshValidationsDo() {
    Random random = new Random(7);
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
    for (int c = 0; c < 30; c++) {
      endpoints.put(cluster(c), List.of(endpoint("10.0." + c + ".1", 80), endpoint("10.0." + c + ".2", 80),
          endpoint("10.0." + c + ".3", 80)));
    }
    List<ClusterSpec> declared = List.of(declared(0, 1), declared(1, 2), declared(2, 3));
    List<RouteConfigSpec> routes = List.of(routeConfig("web", routeTo(cluster(0)), routeTo(cluster(5))));
    int checkedDifferentResults = 0;
    List<String> previous = List.of();
    for (int step = 0; step < 400; step++) {
      int c = random.nextInt(32); // 30 and 31 start absent: adding them is a change of shape
      switch (random.nextInt(9)) {
        case 0 -> endpoints.put(cluster(c), withOne(endpoints.get(cluster(c)), random));
        case 1 -> endpoints.computeIfPresent(cluster(c), (k, v) -> new ArrayList<>(v)); // equal, new instance
        case 2 -> endpoints.put(cluster(c), List.of());
        case 3 -> endpoints.remove(cluster(c));
        case 4 -> endpoints.put(cluster(c), List.of(endpoint("10.1." + c + ".1", 80)));
        case 5 -> {
          List<ClusterSpec> next = new ArrayList<>(declared);
          next.set(random.nextInt(next.size()), declared(random.nextInt(32), random.nextInt(4)));
          declared = List.copyOf(next);
        }
        case 6 -> routes = List.of(routeConfig("web", routeTo(cluster(0)), routeTo(cluster(c))));
        case 7 -> endpoints.put(cluster(c), withOne(endpoints.getOrDefault(cluster(c), List.of()), random));
        default -> { } // the same state again
      }
      DesiredState state = new DesiredState(CONFIG, List.of(apiListener("web", "web")), routes, declared, endpoints);

      List<String> fresh = rendered(new DesiredStateValidator().validate(state));
      assertThat(rendered(incremental.validate(state))).as("step %d", step).isEqualTo(fresh);
      if (!fresh.equals(previous)) {
        checkedDifferentResults++;
      }
      previous = fresh;
    }
    assertThat(checkedDifferentResults).as("the sequence must exercise changing verdicts").isGreaterThan(100);
  }

  @Test
  void aRejectedStateLeavesNothingBehind() {
    DesiredState good = States.valid(ClusterSpec.named("greeter"));
    DesiredState bad = good.withEndpoints("greeter", List.of(endpoint("10.0.0.999", 8080)));

    assertThat(incremental.validate(good).violations()).isEmpty();
    assertThat(rendered(incremental.validate(bad))).containsExactly(
        "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[0] (10.0.0.999:8080): address: must be an IPv4 "
            + "address, IPv6 address or DNS name, was '10.0.0.999' [address]");
    assertThat(incremental.validate(good).violations()).isEmpty();
  }

  @Test
  void aClusterLosingItsEndpointsBreaksTheRouteToItEvenThoughNoConfigChanged() {
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>(Map.of("web", List.of(endpoint("10.0.0.1", 80))));
    List<RouteConfigSpec> routes = List.of(routeConfig("web", routeTo("web")));
    DesiredState discovered =
        new DesiredState(CONFIG, List.of(apiListener("web", "web")), routes, List.of(), endpoints);
    endpoints.remove("web");
    DesiredState gone = new DesiredState(CONFIG, List.of(apiListener("web", "web")), routes, List.of(), endpoints);

    assertThat(incremental.validate(discovered).violations()).isEmpty();
    assertThat(rendered(incremental.validate(gone))).containsExactly("signalbox.yaml: route config 'web': "
        + "virtualHosts[0].routes[0].cluster: names unknown cluster 'web' [reference.cluster]");
  }

  private static List<String> rendered(ValidationResult result) {
    return result.violations().stream().map(Violation::toString).toList();
  }

  private static String cluster(int i) {
    return "c" + i;
  }

  private static ClusterSpec declared(int i, int minEligible) {
    return ClusterSpec.named(cluster(i)).with(new ClusterSpec.Guards(minEligible, null, null));
  }

  /** The list with one endpoint replaced by a variant, valid or not. */
  private static List<EndpointSpec> withOne(List<EndpointSpec> list, Random random) {
    List<EndpointSpec> out = new ArrayList<>(list == null ? List.of() : list);
    EndpointSpec e = out.isEmpty() ? endpoint("10.2.0.1", 80) : out.get(random.nextInt(out.size()));
    EndpointSpec variant = switch (random.nextInt(6)) {
      case 0 -> new EndpointSpec(e.address(), e.port(), e.zone(), random.nextInt(3) * 6000, e.priority(), e.state(),
          e.origin());
      case 1 -> new EndpointSpec("10.0.0." + (250 + random.nextInt(10)), e.port(), e.zone(), e.weight(), e.priority(),
          e.state(), e.origin());
      case 2 -> e.withState(random.nextBoolean() ? EndpointState.WARMING : EndpointState.READY);
      case 3 -> new EndpointSpec(e.address(), e.port(), e.zone(), e.weight(), random.nextInt(3), e.state(), e.origin());
      case 4 -> e; // a duplicate
      default -> new EndpointSpec(e.address(), random.nextInt(3) == 0 ? 0 : 81, e.zone(), e.weight(), e.priority(),
          e.state(), e.origin());
    };
    if (out.isEmpty() || random.nextBoolean()) {
      out.add(variant);
    } else {
      out.set(random.nextInt(out.size()), variant);
    }
    return List.copyOf(out);
  }
}
