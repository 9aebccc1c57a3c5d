package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ProtoValues.ADS;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.signalbox.model.ListenerSpec;
import java.util.Objects;

/**
 * {@link ListenerSpec} to a {@link Listener}: a gRPC proxyless API listener, or an Envoy socket
 * listener with one filter chain. Both carry the same {@link HttpConnectionManager}, which fetches
 * its routes over ADS (RDS) and ends in the router filter.
 */
final class ListenerTranslator {

  static final String HTTP_CONNECTION_MANAGER = "envoy.filters.network.http_connection_manager";
  static final String ROUTER = "envoy.filters.http.router";

  /** Where a socket listener without an address binds; valid input always has one. */
  static final String ANY_ADDRESS = "0.0.0.0";

  // Built once: every listener's HCM holds the same router filter.
  private static final HttpFilter ROUTER_FILTER =
      HttpFilter.newBuilder().setName(ROUTER).setTypedConfig(Any.pack(Router.getDefaultInstance())).build();

  private ListenerTranslator() {}

  static Listener toListener(ListenerSpec spec) {
    Any hcm = Any.pack(httpConnectionManager(spec));
    Listener.Builder listener = Listener.newBuilder().setName(spec.name());
    if (spec.apiListener()) {
      return listener.setApiListener(ApiListener.newBuilder().setApiListener(hcm)).build();
    }
    SocketAddress socket =
        SocketAddress.newBuilder()
            .setAddress(Objects.requireNonNullElse(spec.address(), ANY_ADDRESS))
            .setPortValue(Objects.requireNonNullElse(spec.port(), 0))
            .build();
    return listener
        .setAddress(Address.newBuilder().setSocketAddress(socket))
        .addFilterChains(
            FilterChain.newBuilder()
                .addFilters(Filter.newBuilder().setName(HTTP_CONNECTION_MANAGER).setTypedConfig(hcm)))
        .build();
  }

  static HttpConnectionManager httpConnectionManager(ListenerSpec spec) {
    // grpc-xds NACKs an HCM whose http_filters do not end in the router filter, and Envoy routes
    // nothing without it.
    return HttpConnectionManager.newBuilder()
        .setStatPrefix(spec.name())
        .setCodecType(HttpConnectionManager.CodecType.AUTO)
        .setRds(
            Rds.newBuilder()
                .setRouteConfigName(Objects.requireNonNullElse(spec.routeConfig(), ""))
                .setConfigSource(ADS))
        .addHttpFilters(ROUTER_FILTER)
        .build();
  }
}
