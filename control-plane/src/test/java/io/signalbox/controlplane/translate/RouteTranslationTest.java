package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.Translations.listeners;
import static io.signalbox.controlplane.translate.Translations.routeConfiguration;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Duration;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.HeaderMatchSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.VirtualHostSpec;
import io.signalbox.model.WeightedClusterSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouteTranslationTest {

  private final XdsTranslator translator = new XdsTranslator();

  private Translation translate(RouteConfigSpec spec) {
    return translator.translate(listeners(List.of(), List.of(spec)));
  }

  private static RouteConfigSpec config(String name, RouteSpec... routes) {
    return new RouteConfigSpec(name, List.of(new VirtualHostSpec("vh", List.of("*"), List.of(routes))));
  }

  @Test
  void translatesAPrefixRouteToASingleCluster() {
    RouteConfigSpec spec = config("greeter", new RouteSpec(new RouteMatchSpec("", null, null), "greeter", null, null));
    assertThat(routeConfiguration(translate(spec), "greeter"))
        .isEqualTo(
            RouteConfiguration.newBuilder()
                .setName("greeter")
                .addVirtualHosts(
                    VirtualHost.newBuilder()
                        .setName("vh")
                        .addDomains("*")
                        .addRoutes(
                            Route.newBuilder()
                                .setMatch(RouteMatch.newBuilder().setPrefix(""))
                                .setRoute(RouteAction.newBuilder().setCluster("greeter"))))
                .build());
  }

  @Test
  void translatesAPathRouteWithTimeoutAndHeaderMatches() {
    RouteSpec route =
        new RouteSpec(
            new RouteMatchSpec(
                null,
                "/helloworld.Greeter/SayHello",
                List.of(
                    new HeaderMatchSpec("x-canary", "true", null, null),
                    new HeaderMatchSpec("x-tenant", null, "acme-", null),
                    new HeaderMatchSpec("x-debug", null, null, true),
                    new HeaderMatchSpec("x-legacy", null, null, false))),
            "greeter",
            null,
            java.time.Duration.ofMillis(1500));
    Route translated = routeConfiguration(translate(config("r", route)), "r").getVirtualHosts(0).getRoutes(0);
    assertThat(translated)
        .isEqualTo(
            Route.newBuilder()
                .setMatch(
                    RouteMatch.newBuilder()
                        .setPath("/helloworld.Greeter/SayHello")
                        .addHeaders(
                            HeaderMatcher.newBuilder()
                                .setName("x-canary")
                                .setStringMatch(StringMatcher.newBuilder().setExact("true")))
                        .addHeaders(
                            HeaderMatcher.newBuilder()
                                .setName("x-tenant")
                                .setStringMatch(StringMatcher.newBuilder().setPrefix("acme-")))
                        .addHeaders(HeaderMatcher.newBuilder().setName("x-debug").setPresentMatch(true))
                        .addHeaders(HeaderMatcher.newBuilder().setName("x-legacy").setPresentMatch(false)))
                .setRoute(
                    RouteAction.newBuilder()
                        .setCluster("greeter")
                        .setTimeout(Duration.newBuilder().setSeconds(1).setNanos(500_000_000)))
                .build());
  }

  @Test
  void translatesWeightedClustersInDeclaredOrder() {
    RouteSpec route =
        new RouteSpec(
            new RouteMatchSpec("/", null, null),
            null,
            List.of(new WeightedClusterSpec("v2", 10), new WeightedClusterSpec("v1", 90)),
            null);
    RouteAction action = routeConfiguration(translate(config("r", route)), "r").getVirtualHosts(0).getRoutes(0).getRoute();
    assertThat(action)
        .isEqualTo(
            RouteAction.newBuilder()
                .setWeightedClusters(
                    WeightedCluster.newBuilder()
                        .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("v2").setWeight(UInt32Value.of(10)))
                        .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("v1").setWeight(UInt32Value.of(90))))
                .build());
  }

  @Test
  void referencesEveryClusterItsRoutesNameIncludingWeightedOnes() {
    RouteConfigSpec spec =
        new RouteConfigSpec(
            "web",
            List.of(
                new VirtualHostSpec(
                    "a",
                    List.of("a.example"),
                    List.of(
                        new RouteSpec(new RouteMatchSpec("/x", null, null), "x", null, null),
                        new RouteSpec(
                            new RouteMatchSpec("/", null, null),
                            null,
                            List.of(new WeightedClusterSpec("v1", 50), new WeightedClusterSpec("v2", 50)),
                            null))),
                new VirtualHostSpec(
                    "b", List.of("b.example"), List.of(new RouteSpec(new RouteMatchSpec("", null, null), "x", null, null)))));
    assertThat(Translations.resource(translate(spec), XdsType.ROUTE, "web").references())
        .containsExactlyInAnyOrder("x", "v1", "v2");
  }

  @Test
  void keepsVirtualHostsAndRoutesInDeclaredOrderBecauseEnvoyMatchesFirstToLast() {
    RouteConfigSpec spec =
        new RouteConfigSpec(
            "web",
            List.of(
                new VirtualHostSpec(
                    "z",
                    List.of("z.example"),
                    List.of(
                        new RouteSpec(new RouteMatchSpec("/specific", null, null), "s", null, null),
                        new RouteSpec(new RouteMatchSpec("/", null, null), "fallback", null, null))),
                new VirtualHostSpec("a", List.of("*"), List.of())));
    RouteConfiguration rc = routeConfiguration(translate(spec), "web");
    assertThat(rc.getVirtualHostsList()).extracting(VirtualHost::getName).containsExactly("z", "a");
    assertThat(rc.getVirtualHosts(0).getRoutesList())
        .extracting(r -> r.getRoute().getCluster())
        .containsExactly("s", "fallback");
  }

  @Test
  void asksForTheAuthorityRewriteOnlyWhereARouteDoes() {
    RouteConfigSpec spec = config("greeter",
        new RouteSpec(new RouteMatchSpec("/a", null, null), "greeter", null, null, null, null, true),
        new RouteSpec(new RouteMatchSpec("", null, null), "greeter", null, null));
    var routes = routeConfiguration(translate(spec), "greeter").getVirtualHosts(0).getRoutesList();
    assertThat(routes).extracting(r -> r.getRoute().hasAutoHostRewrite()).containsExactly(true, false);
    assertThat(routes.get(0).getRoute().getAutoHostRewrite().getValue()).isTrue();
  }
}
