package io.signalbox.validation;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.HashPolicySpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.RetryPolicySpec;
import io.signalbox.model.RouteSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A route's traffic policy: what it hashes for affinity and how it retries (DESIGN "Traffic
 * policy"). Besides the rules both clients share, a route served to grpc-xds clients (its route
 * config is an API listener's) is warned about what grpc-xds would silently ignore, because such a
 * policy then does nothing for those clients; docs/traffic-policy.md has the whole matrix.
 */
final class RoutePolicyRules {

  /** Envoy's HTTP retry conditions ({@code x-envoy-retry-on}). */
  static final List<String> HTTP_RETRY_ON = List.of(
      "5xx", "gateway-error", "reset", "reset-before-request", "connect-failure", "envoy-ratelimited",
      "retriable-4xx", "refused-stream", "retriable-status-codes", "retriable-headers",
      "http3-post-connect-failure");

  /**
   * gRPC status conditions ({@code x-envoy-retry-grpc-on}); the only ones grpc-xds reads from
   * {@code retry_on} (grpc-java {@code XdsRouteConfigureResource.parseRetryPolicy}).
   */
  static final List<String> GRPC_RETRY_ON = List.of(
      "cancelled", "deadline-exceeded", "internal", "resource-exhausted", "unavailable");

  /** Per route; more multiplies every failure that much before any budget can say no. */
  static final int MAX_RETRIES = 10;

  /** grpc-java's channel caps attempts at 5 ({@code maxRetryAttempts}), whatever xDS says. */
  static final int GRPC_MAX_RETRIES = 4;

  /** Envoy's route timeout when none is set. */
  static final Duration ENVOY_DEFAULT_ROUTE_TIMEOUT = Duration.ofSeconds(15);

  private RoutePolicyRules() {}

  /**
   * @param clusters declared clusters by name; a route's cluster that is not here is a discovered
   *     one with the defaults (ROUND_ROBIN)
   * @param servedToGrpc whether an API listener (grpc-xds) uses this route's route config
   */
  static void check(String src, String label, String path, RouteSpec route, Map<String, ClusterSpec> clusters,
      boolean servedToGrpc, Findings f) {
    checkHashPolicies(src, label, path, route, clusters, servedToGrpc, f);
    if (servedToGrpc) {
      for (String name : route.clusters()) {
        LbPolicy policy = clusters.getOrDefault(name, ClusterSpec.named(name)).effectiveLbPolicy();
        if (ClientSupport.of(ClientKind.GRPC_JAVA, ClientSetting.of(policy)).verdict() == ClientSupport.Verdict.REJECTED) {
          // grpc-java's LoadBalancerConfigFactory: "Cluster x: unsupported lb policy: MAGLEV".
          f.warning("grpc-xds.rejected", src, Labels.field(label, path),
              "grpc-xds rejects cluster '" + name + "': it does not support lbPolicy " + policy);
        }
      }
    }
    if (route.retryPolicy() != null) {
      checkRetryPolicy(src, label, path + ".retryPolicy", route.retryPolicy(), route.timeout(), servedToGrpc, f);
    }
  }

  private static void checkHashPolicies(String src, String label, String path, RouteSpec route,
      Map<String, ClusterSpec> clusters, boolean servedToGrpc, Findings f) {
    List<HashPolicySpec> policies = route.hashPolicy();
    for (int i = 0; i < policies.size(); i++) {
      String at = path + ".hashPolicy[" + i + "]";
      HashPolicySpec p = policies.get(i);
      long set = Stream.of(p.header(), p.cookie(), p.sourceIp(), p.queryParameter(), p.channelId())
          .filter(Objects::nonNull).count();
      if (set != 1) {
        f.error("hash-policy", src, Labels.field(label, at),
            "must set exactly one of header, cookie, sourceIp, queryParameter or channelId, "
                + (set == 0 ? "none is set" : set + " are set"));
      }
      notBlank(src, Labels.field(label, at + ".header"), p.header(), f);
      notBlank(src, Labels.field(label, at + ".queryParameter"), p.queryParameter(), f);
      mustBeTrue(src, Labels.field(label, at + ".sourceIp"), p.sourceIp(), f);
      mustBeTrue(src, Labels.field(label, at + ".channelId"), p.channelId(), f);
      if (p.cookie() != null) {
        HashPolicySpec.CookieSpec cookie = p.cookie();
        if (cookie.name() == null) {
          f.error(Findings.REQUIRED, src, Labels.field(label, at + ".cookie.name"), "is required");
        }
        notBlank(src, Labels.field(label, at + ".cookie.name"), cookie.name(), f);
        f.nonNegative(src, Labels.field(label, at + ".cookie.ttl"), cookie.ttl());
        if (cookie.path() != null && !cookie.path().startsWith("/")) {
          f.error("hash-policy", src, Labels.field(label, at + ".cookie.path"),
              "must start with '/', was " + Findings.quote(cookie.path()));
        }
      }
      if (servedToGrpc && set == 1) {
        String ignored = p.cookie() != null ? "cookie" : p.sourceIp() != null ? "sourceIp"
            : p.queryParameter() != null ? "queryParameter" : null;
        if (ignored != null) {
          f.warning("grpc-xds.ignored", src, Labels.field(label, at),
              "grpc-xds ignores " + ignored + " hash policies (it hashes only header and channelId)");
        }
      }
    }
    if (policies.isEmpty()) {
      return;
    }
    for (String name : route.clusters()) {
      ClusterSpec cluster = clusters.getOrDefault(name, ClusterSpec.named(name));
      if (!cluster.hashesRequests()) {
        f.warning("hash-policy.unused", src, Labels.field(label, path + ".hashPolicy"),
            "has no effect on cluster '" + name + "', whose lbPolicy is " + cluster.effectiveLbPolicy()
                + " (only RING_HASH and MAGLEV hash requests)");
      }
    }
  }

  private static void checkRetryPolicy(String src, String label, String path, RetryPolicySpec retry,
      Duration routeTimeout, boolean servedToGrpc, Findings f) {
    if (retry.retryOn().isEmpty()) {
      f.error(Findings.REQUIRED, src, Labels.field(label, path + ".retryOn"), "must name at least one condition");
    }
    boolean anyGrpc = false;
    for (int i = 0; i < retry.retryOn().size(); i++) {
      String on = retry.retryOn().get(i);
      if (GRPC_RETRY_ON.contains(on)) {
        anyGrpc = true;
      } else if (!HTTP_RETRY_ON.contains(on)) {
        f.error("retry-policy", src, Labels.field(label, path + ".retryOn[" + i + "]"),
            "unknown condition " + Findings.quote(on) + " (expected one of "
                + String.join(", ", HTTP_RETRY_ON) + ", " + String.join(", ", GRPC_RETRY_ON) + ")");
      }
    }
    if (servedToGrpc && !retry.retryOn().isEmpty() && !anyGrpc) {
      f.warning("grpc-xds.ignored", src, Labels.field(label, path + ".retryOn"),
          "names no gRPC status (" + String.join(", ", GRPC_RETRY_ON) + "), so grpc-xds clients never retry");
    }
    f.range(src, Labels.field(label, path + ".numRetries"), retry.numRetries(), 1, MAX_RETRIES);
    if (servedToGrpc && retry.numRetries() != null && retry.numRetries() > GRPC_MAX_RETRIES
        && retry.numRetries() <= MAX_RETRIES) {
      f.warning("grpc-xds.ignored", src, Labels.field(label, path + ".numRetries"),
          "grpc-xds makes at most 5 attempts per call, so it retries 4 times, not " + retry.numRetries());
    }
    Duration perTry = retry.perTryTimeout();
    f.positive(src, Labels.field(label, path + ".perTryTimeout"), perTry);
    Duration timeout = routeTimeout == null ? ENVOY_DEFAULT_ROUTE_TIMEOUT : routeTimeout;
    if (perTry != null && positive(perTry) && !timeout.isZero() && perTry.compareTo(timeout) >= 0) {
      f.error("retry-policy", src, Labels.field(label, path + ".perTryTimeout"),
          "must be < the route's timeout (" + Findings.format(timeout)
              + (routeTimeout == null ? ", Envoy's default" : "") + ") or no attempt is ever retried, was "
              + Findings.format(perTry));
    }
    RetryPolicySpec.BackoffSpec backoff = retry.backoff();
    if (backoff != null) {
      // Envoy and grpc-xds both reject a back-off without a base interval.
      if (backoff.base() == null) {
        f.error(Findings.REQUIRED, src, Labels.field(label, path + ".backoff.base"), "is required");
      }
      f.positive(src, Labels.field(label, path + ".backoff.base"), backoff.base());
      f.positive(src, Labels.field(label, path + ".backoff.max"), backoff.max());
      if (backoff.base() != null && backoff.max() != null && positive(backoff.base())
          && backoff.max().compareTo(backoff.base()) < 0) {
        f.error(Findings.RANGE, src, Labels.field(label, path + ".backoff.max"),
            "must be >= base (" + Findings.format(backoff.base()) + "), was " + Findings.format(backoff.max()));
      }
    }
    List<Integer> codes = retry.retriableStatusCodes();
    for (int i = 0; i < codes.size(); i++) {
      f.range(src, Labels.field(label, path + ".retriableStatusCodes[" + i + "]"), codes.get(i), 100, 599);
    }
    if (!codes.isEmpty() && !retry.retryOn().contains("retriable-status-codes")) {
      f.error("retry-policy", src, Labels.field(label, path + ".retriableStatusCodes"),
          "needs 'retriable-status-codes' in retryOn, or Envoy never looks at it");
    }
  }

  private static boolean positive(Duration d) {
    return !d.isZero() && !d.isNegative();
  }

  private static void notBlank(String src, String path, String value, Findings f) {
    if (value != null && value.isBlank()) {
      f.error(Findings.REQUIRED, src, path, "must not be blank");
    }
  }

  private static void mustBeTrue(String src, String path, Boolean value, Findings f) {
    if (Boolean.FALSE.equals(value)) {
      f.error("hash-policy", src, path, "must be true when set (leave the entry out instead), was false");
    }
  }

  /** Route configs that an API listener (a grpc-xds client) uses. */
  static Set<String> servedToGrpc(List<io.signalbox.model.ListenerSpec> listeners) {
    Set<String> out = new java.util.HashSet<>();
    for (var listener : listeners) {
      if (listener != null && listener.apiListener() && listener.routeConfig() != null) {
        out.add(listener.routeConfig());
      }
    }
    return out;
  }
}
