package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ProtoValues.duration;
import static io.signalbox.controlplane.translate.ProtoValues.uint32;

import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.signalbox.model.HashPolicySpec;
import io.signalbox.model.RetryPolicySpec;
import java.util.Optional;

/** A route's hash policies and retry policy, as Envoy's {@code RouteAction} fields. */
final class RoutePolicyTranslator {

  /**
   * The filter state key grpc-xds hashes per channel (gRFC A42); Envoy knows no such key and
   * skips the policy.
   */
  static final String GRPC_CHANNEL_ID = "io.grpc.channel_id";

  private RoutePolicyTranslator() {}

  /** Empty for an entry that is not exactly one policy (the validator has refused it already). */
  static Optional<RouteAction.HashPolicy> hashPolicy(HashPolicySpec spec) {
    HashPolicySpec.HashKey key = spec.key();
    if (key == null) {
      return Optional.empty();
    }
    RouteAction.HashPolicy.Builder policy = RouteAction.HashPolicy.newBuilder().setTerminal(spec.isTerminal());
    // Java 17: no pattern switch yet; the variants are sealed, so this chain is exhaustive.
    if (key instanceof HashPolicySpec.HashKey.Header h) {
      policy.setHeader(RouteAction.HashPolicy.Header.newBuilder().setHeaderName(h.name()));
    } else if (key instanceof HashPolicySpec.HashKey.Cookie c) {
      RouteAction.HashPolicy.Cookie.Builder cookie = RouteAction.HashPolicy.Cookie.newBuilder().setName(c.name());
      if (c.ttl() != null) {
        cookie.setTtl(duration(c.ttl()));
      }
      if (c.path() != null) {
        cookie.setPath(c.path());
      }
      policy.setCookie(cookie);
    } else if (key instanceof HashPolicySpec.HashKey.SourceIp) {
      policy.setConnectionProperties(RouteAction.HashPolicy.ConnectionProperties.newBuilder().setSourceIp(true));
    } else if (key instanceof HashPolicySpec.HashKey.QueryParameter q) {
      policy.setQueryParameter(RouteAction.HashPolicy.QueryParameter.newBuilder().setName(q.name()));
    } else {
      policy.setFilterState(RouteAction.HashPolicy.FilterState.newBuilder().setKey(GRPC_CHANNEL_ID));
    }
    return Optional.of(policy.build());
  }

  /** {@code retry_on} is one comma-separated string of Envoy's and gRPC's conditions alike. */
  static RetryPolicy retryPolicy(RetryPolicySpec spec) {
    RetryPolicy.Builder retry = RetryPolicy.newBuilder().setRetryOn(String.join(",", spec.retryOn()));
    if (spec.numRetries() != null) {
      retry.setNumRetries(uint32(spec.numRetries()));
    }
    if (spec.perTryTimeout() != null) {
      retry.setPerTryTimeout(duration(spec.perTryTimeout()));
    }
    if (spec.backoff() != null) {
      RetryPolicy.RetryBackOff.Builder backoff = RetryPolicy.RetryBackOff.newBuilder();
      if (spec.backoff().base() != null) {
        backoff.setBaseInterval(duration(spec.backoff().base()));
      }
      if (spec.backoff().max() != null) {
        backoff.setMaxInterval(duration(spec.backoff().max()));
      }
      retry.setRetryBackOff(backoff);
    }
    retry.addAllRetriableStatusCodes(spec.retriableStatusCodes());
    return retry.build();
  }
}
