package io.signalbox.validation;

import static io.signalbox.validation.States.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.HashPolicySpec;
import io.signalbox.model.HashPolicySpec.CookieSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RetryPolicySpec;
import io.signalbox.model.RetryPolicySpec.BackoffSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.WeightedClusterSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoutePolicyRulesTest {

  private static final String ROUTE = "signalbox.yaml: route config 'web': virtualHosts[0].routes[0]";

  private static ClusterSpec withPolicy(String name, LbPolicy policy) {
    return ClusterSpec.named(name).with(ClusterSpec.Balancing.of(policy));
  }

  /** One route in route config 'web' to clusters 'ring' (RING_HASH) and 'plain' (ROUND_ROBIN). */
  private static DesiredState state(ListenerSpec listener, RouteSpec route) {
    return new DesiredState(
        CONFIG,
        List.of(listener),
        List.of(routeConfig("web", route)),
        List.of(withPolicy("ring", LbPolicy.RING_HASH), withPolicy("plain", LbPolicy.ROUND_ROBIN),
            withPolicy("maglev", LbPolicy.MAGLEV)),
        Map.of("ring", List.of(endpoint("10.0.0.1", 8080)), "plain", List.of(endpoint("10.0.0.2", 8080)),
            "maglev", List.of(endpoint("10.0.0.3", 8080))));
  }

  /** Served to Envoy only: no grpc-xds warnings. */
  private static DesiredState envoy(RouteSpec route) {
    return state(socketListener("web", "0.0.0.0", 10000, "web"), route);
  }

  private static DesiredState grpc(RouteSpec route) {
    return state(apiListener("web", "web"), route);
  }

  private static RouteSpec hashing(String cluster, HashPolicySpec... policies) {
    return new RouteSpec(new RouteMatchSpec("", null, null), cluster, null, null, List.of(policies), null);
  }

  private static RouteSpec retrying(Duration timeout, RetryPolicySpec retry) {
    return new RouteSpec(new RouteMatchSpec("", null, null), "plain", null, timeout, List.of(), retry);
  }

  private static HashPolicySpec header(String name) {
    return new HashPolicySpec(name, null, null, null, null, null);
  }

  private static RetryPolicySpec retryOn(String... conditions) {
    return new RetryPolicySpec(List.of(conditions), 2, null, null, null);
  }

  @Test
  void acceptsEveryHashPolicyOnAHashingCluster() {
    assertThat(rendered(envoy(hashing("ring",
        header("x-user"),
        new HashPolicySpec(null, new CookieSpec("sid", Duration.ofHours(1), "/"), null, null, null, true),
        new HashPolicySpec(null, null, true, null, null, null),
        new HashPolicySpec(null, null, null, "tenant", null, null),
        new HashPolicySpec(null, null, null, null, true, null))))).isEmpty();
  }

  @Test
  void requiresExactlyOneThingToHashPerEntry() {
    assertThat(rendered(envoy(hashing("ring",
        new HashPolicySpec(null, null, null, null, null, true),
        new HashPolicySpec("x-user", null, true, null, null, null)))))
        .containsExactly(
            ROUTE + ".hashPolicy[0]: must set exactly one of header, cookie, sourceIp, queryParameter or channelId, none is set [hash-policy]",
            ROUTE + ".hashPolicy[1]: must set exactly one of header, cookie, sourceIp, queryParameter or channelId, 2 are set [hash-policy]");
  }

  @Test
  void rejectsBlankNamesBadCookiesAndFalseFlags() {
    assertThat(rendered(envoy(hashing("ring",
        header(" "),
        new HashPolicySpec(null, new CookieSpec(null, Duration.ofSeconds(-1), "sid"), null, null, null, null),
        new HashPolicySpec(null, new CookieSpec("", null, null), null, null, null, null),
        new HashPolicySpec(null, null, false, null, null, null),
        new HashPolicySpec(null, null, null, "", null, null),
        new HashPolicySpec(null, null, null, null, false, null)))))
        .containsExactly(
            ROUTE + ".hashPolicy[0].header: must not be blank [required]",
            ROUTE + ".hashPolicy[1].cookie.name: is required [required]",
            ROUTE + ".hashPolicy[1].cookie.ttl: must be >= 0s, was -1s [range]",
            ROUTE + ".hashPolicy[1].cookie.path: must start with '/', was 'sid' [hash-policy]",
            ROUTE + ".hashPolicy[2].cookie.name: must not be blank [required]",
            ROUTE + ".hashPolicy[3].sourceIp: must be true when set (leave the entry out instead), was false [hash-policy]",
            ROUTE + ".hashPolicy[4].queryParameter: must not be blank [required]",
            ROUTE + ".hashPolicy[5].channelId: must be true when set (leave the entry out instead), was false [hash-policy]");
  }

  @Test
  void warnsWhenNoDestinationHashesRequests() {
    assertThat(rendered(envoy(hashing("plain", header("x-user")))))
        .containsExactly(ROUTE + ".hashPolicy: has no effect on cluster 'plain', whose lbPolicy is ROUND_ROBIN "
            + "(only RING_HASH and MAGLEV hash requests) [hash-policy.unused] (warning)");
    RouteSpec weighted = new RouteSpec(new RouteMatchSpec("", null, null), null,
        List.of(new WeightedClusterSpec("ring", 1), new WeightedClusterSpec("discovered-only", 1)), null,
        List.of(header("x-user")), null);
    DesiredState discovered = envoy(weighted).withEndpoints("discovered-only", List.of(endpoint("10.0.0.9", 80)));
    assertThat(rendered(discovered))
        .containsExactly(ROUTE + ".hashPolicy: has no effect on cluster 'discovered-only', whose lbPolicy is ROUND_ROBIN "
            + "(only RING_HASH and MAGLEV hash requests) [hash-policy.unused] (warning)");
  }

  @Test
  void warnsGrpcClientsIgnoreCookieSourceIpAndQueryParameterHashing() {
    assertThat(rendered(grpc(hashing("ring",
        header("x-user"),
        new HashPolicySpec(null, new CookieSpec("sid", null, null), null, null, null, null),
        new HashPolicySpec(null, null, true, null, null, null),
        new HashPolicySpec(null, null, null, "tenant", null, null),
        new HashPolicySpec(null, null, null, null, true, null)))))
        .containsExactly(
            ROUTE + ".hashPolicy[1]: grpc-xds ignores cookie hash policies (it hashes only header and channelId) [grpc-xds.ignored] (warning)",
            ROUTE + ".hashPolicy[2]: grpc-xds ignores sourceIp hash policies (it hashes only header and channelId) [grpc-xds.ignored] (warning)",
            ROUTE + ".hashPolicy[3]: grpc-xds ignores queryParameter hash policies (it hashes only header and channelId) [grpc-xds.ignored] (warning)");
  }

  @Test
  void warnsThatGrpcClientsRejectMaglevClusters() {
    assertThat(rendered(grpc(hashing("maglev", header("x-user")))))
        .containsExactly(ROUTE + ": grpc-xds rejects cluster 'maglev': it does not support lbPolicy MAGLEV [grpc-xds.rejected] (warning)");
    assertThat(rendered(envoy(hashing("maglev", header("x-user"))))).isEmpty();
  }

  @Test
  void acceptsARetryPolicyInBothVocabularies() {
    RetryPolicySpec retry = new RetryPolicySpec(List.of("unavailable", "reset", "5xx", "retriable-status-codes"), 2,
        Duration.ofSeconds(1), new BackoffSpec(Duration.ofMillis(25), Duration.ofMillis(250)), List.of(503));
    assertThat(rendered(grpc(retrying(Duration.ofSeconds(5), retry)))).isEmpty();
  }

  @Test
  void rejectsUnknownOrMissingConditions() {
    assertThat(rendered(envoy(retrying(null, retryOn("unavailable", "503")))))
        .containsExactly(ROUTE + ".retryPolicy.retryOn[1]: unknown condition '503' (expected one of 5xx, gateway-error, reset, "
            + "reset-before-request, connect-failure, envoy-ratelimited, retriable-4xx, refused-stream, retriable-status-codes, "
            + "retriable-headers, http3-post-connect-failure, cancelled, deadline-exceeded, internal, resource-exhausted, "
            + "unavailable) [retry-policy]");
    assertThat(rendered(envoy(retrying(null, retryOn()))))
        .containsExactly(ROUTE + ".retryPolicy.retryOn: must name at least one condition [required]");
  }

  @Test
  void boundsRetriesPerRequest() {
    assertThat(rendered(envoy(retrying(null, new RetryPolicySpec(List.of("5xx"), 0, null, null, null)))))
        .containsExactly(ROUTE + ".retryPolicy.numRetries: must be >= 1, was 0 [range]");
    assertThat(rendered(envoy(retrying(null, new RetryPolicySpec(List.of("5xx"), 11, null, null, null)))))
        .containsExactly(ROUTE + ".retryPolicy.numRetries: must be <= 10, was 11 [range]");
  }

  @Test
  void requiresThePerTryTimeoutBelowTheRouteTimeout() {
    assertThat(rendered(envoy(retrying(Duration.ofSeconds(1), new RetryPolicySpec(List.of("5xx"), 2,
        Duration.ofSeconds(1), null, null)))))
        .containsExactly(ROUTE + ".retryPolicy.perTryTimeout: must be < the route's timeout (1s) or no attempt is ever "
            + "retried, was 1s [retry-policy]");
    assertThat(rendered(envoy(retrying(null, new RetryPolicySpec(List.of("5xx"), 2, Duration.ofSeconds(20), null, null)))))
        .containsExactly(ROUTE + ".retryPolicy.perTryTimeout: must be < the route's timeout (15s, Envoy's default) or no "
            + "attempt is ever retried, was 20s [retry-policy]");
    assertThat(rendered(envoy(retrying(Duration.ZERO, new RetryPolicySpec(List.of("5xx"), 2, Duration.ofSeconds(20), null, null)))))
        .as("timeout 0 disables the route timeout")
        .isEmpty();
    assertThat(rendered(envoy(retrying(null, new RetryPolicySpec(List.of("5xx"), 2, Duration.ZERO, null, null)))))
        .containsExactly(ROUTE + ".retryPolicy.perTryTimeout: must be > 0s, was 0s [range]");
  }

  @Test
  void requiresABackoffBaseNoLargerThanItsMax() {
    assertThat(rendered(envoy(retrying(null, new RetryPolicySpec(List.of("5xx"), 2, null,
        new BackoffSpec(Duration.ofMillis(100), Duration.ofMillis(50)), null)))))
        .containsExactly(ROUTE + ".retryPolicy.backoff.max: must be >= base (100ms), was 50ms [range]");
    assertThat(rendered(envoy(retrying(null, new RetryPolicySpec(List.of("5xx"), 2, null,
        new BackoffSpec(null, Duration.ZERO), null)))))
        .containsExactly(
            ROUTE + ".retryPolicy.backoff.base: is required [required]",
            ROUTE + ".retryPolicy.backoff.max: must be > 0s, was 0s [range]");
  }

  @Test
  void retriableStatusCodesNeedTheirConditionAndARange() {
    assertThat(rendered(envoy(retrying(null, new RetryPolicySpec(List.of("5xx"), 2, null, null, List.of(503, 99))))))
        .containsExactly(
            ROUTE + ".retryPolicy.retriableStatusCodes[1]: must be >= 100, was 99 [range]",
            ROUTE + ".retryPolicy.retriableStatusCodes: needs 'retriable-status-codes' in retryOn, or Envoy never looks at it [retry-policy]");
  }

  @Test
  void warnsGrpcClientsAboutRetriesTheyWillNotMake() {
    assertThat(rendered(grpc(retrying(null, retryOn("5xx", "reset")))))
        .containsExactly(ROUTE + ".retryPolicy.retryOn: names no gRPC status (cancelled, deadline-exceeded, internal, "
            + "resource-exhausted, unavailable), so grpc-xds clients never retry [grpc-xds.ignored] (warning)");
    assertThat(rendered(grpc(retrying(null, new RetryPolicySpec(List.of("unavailable"), 6, null, null, null)))))
        .containsExactly(ROUTE + ".retryPolicy.numRetries: grpc-xds makes at most 5 attempts per call, so it retries 4 "
            + "times, not 6 [grpc-xds.ignored] (warning)");
    assertThat(rendered(envoy(retrying(null, retryOn("5xx", "reset"))))).isEmpty();
  }
}
