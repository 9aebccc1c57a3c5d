package io.signalbox.validation;

import static io.signalbox.validation.States.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.HeaderMatchSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.VirtualHostSpec;
import io.signalbox.model.WeightedClusterSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouteRulesTest {

  private static DesiredState withHosts(VirtualHostSpec... hosts) {
    return new DesiredState(
        CONFIG,
        List.of(apiListener("web", "web")),
        List.of(new RouteConfigSpec("web", List.of(hosts))),
        List.of(ClusterSpec.named("greeter"), ClusterSpec.named("canary")),
        Map.of("greeter", List.of(endpoint("10.0.0.1", 8080)), "canary", List.of(endpoint("10.0.0.2", 8080))));
  }

  private static DesiredState withRoutes(RouteSpec... routes) {
    return withHosts(new VirtualHostSpec("web", List.of("*"), List.of(routes)));
  }

  private static RouteMatchSpec prefix(String prefix) {
    return new RouteMatchSpec(prefix, null, null);
  }

  @Test
  void acceptsPathPrefixHeadersWeightsAndTimeout() {
    RouteSpec exact = new RouteSpec(
        new RouteMatchSpec(null, "/greet", List.of(new HeaderMatchSpec("x-canary", "1", null, null))),
        null,
        List.of(new WeightedClusterSpec("greeter", 9000), new WeightedClusterSpec("canary", 1000)),
        Duration.ofSeconds(5));

    assertThat(rendered(withRoutes(exact, new RouteSpec(prefix("/"), "greeter", null, Duration.ZERO)))).isEmpty();
  }

  @Test
  void requiresExactlyOneOfPrefixOrPath() {
    assertThat(rendered(withRoutes(
            new RouteSpec(new RouteMatchSpec("/", "/x", null), "greeter", null, null),
            new RouteSpec(new RouteMatchSpec(null, null, null), "greeter", null, null),
            new RouteSpec(null, "greeter", null, null))))
        .containsExactly(
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[0].match: must set exactly one of prefix or path, both are set [route.match]",
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[1].match: must set exactly one of prefix or path, neither is set [route.match]",
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[2].match: is required [required]");
  }

  @Test
  void requiresPathsToStartWithSlash() {
    assertThat(rendered(withRoutes(
            new RouteSpec(prefix("api"), "greeter", null, null),
            new RouteSpec(new RouteMatchSpec(null, "greet", null), "greeter", null, null))))
        .containsExactly(
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[0].match.prefix: must be empty or start with '/', was 'api' [route.match]",
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[1].match.path: must start with '/', was 'greet' [route.match]");
  }

  @Test
  void requiresExactlyOneDestination() {
    assertThat(rendered(withRoutes(
            new RouteSpec(prefix(""), "greeter", List.of(new WeightedClusterSpec("canary", 1)), null),
            new RouteSpec(prefix(""), null, null, null))))
        .containsExactly(
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[0]: must set exactly one of cluster or weightedClusters, both are set [route.destination]",
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[1]: must set exactly one of cluster or weightedClusters, neither is set [route.destination]");
  }

  @Test
  void rejectsWeightsOutOfRange() {
    assertThat(rendered(withRoutes(new RouteSpec(
            prefix(""),
            null,
            List.of(new WeightedClusterSpec("greeter", 0), new WeightedClusterSpec("canary", 10001)),
            null))))
        .containsExactly(
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[0].weightedClusters[0].weight: must be >= 1, was 0 [range]",
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[0].weightedClusters[1].weight: must be <= 10000, was 10001 [range]");
  }

  @Test
  void rejectsWeightsSummingToZero() {
    assertThat(rendered(withRoutes(new RouteSpec(prefix(""), null, List.of(new WeightedClusterSpec("greeter", 0)), null))))
        .containsExactly(
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[0].weightedClusters[0].weight: must be >= 1, was 0 [range]",
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[0].weightedClusters: weights must sum to more than 0, was 0 [route.destination]");
  }

  @Test
  void rejectsMalformedHeaderMatchers() {
    RouteMatchSpec match = new RouteMatchSpec(
        "",
        null,
        List.of(new HeaderMatchSpec(null, "1", null, null), new HeaderMatchSpec("x-a", "1", "2", null), new HeaderMatchSpec("x-b", null, null, null)));

    assertThat(rendered(withRoutes(new RouteSpec(match, "greeter", null, null))))
        .containsExactly(
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[0].match.headers[0].name: is required [required]",
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[0].match.headers[1]: must set exactly one of exact, prefix or present, 2 are set [header.match]",
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[0].match.headers[2]: must set exactly one of exact, prefix or present, none is set [header.match]");
  }

  @Test
  void rejectsNegativeTimeout() {
    assertThat(rendered(withRoutes(new RouteSpec(prefix(""), "greeter", null, Duration.ofSeconds(-1)))))
        .containsExactly("signalbox.yaml: route config 'web': virtualHosts[0].routes[0].timeout: must be >= 0s, was -1s [range]");
  }

  @Test
  void requiresDomainsUniqueAcrossVirtualHosts() {
    assertThat(rendered(withHosts(
            new VirtualHostSpec("a", List.of("a.example", "*"), List.of(routeTo("greeter"))),
            new VirtualHostSpec("b", List.of("*"), List.of(routeTo("greeter"))),
            new VirtualHostSpec("c", List.of(), List.of(routeTo("greeter"))))))
        .containsExactly(
            "signalbox.yaml: route config 'web': virtualHosts[1].domains[0]: duplicate domain '*' (also at virtualHosts[0].domains[1]) [duplicate.domain]",
            "signalbox.yaml: route config 'web': virtualHosts[2].domains: must have at least 1 domain [required]");
  }
}
