package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.Translations.listener;
import static io.signalbox.controlplane.translate.Translations.listeners;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.ListenerSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListenerTranslationTest {

  private final XdsTranslator translator = new XdsTranslator();

  private static HttpConnectionManager expectedHcm(String statPrefix, String routeConfig) {
    return HttpConnectionManager.newBuilder()
        .setStatPrefix(statPrefix)
        .setCodecType(HttpConnectionManager.CodecType.AUTO)
        .setRds(
            Rds.newBuilder()
                .setRouteConfigName(routeConfig)
                .setConfigSource(
                    ConfigSource.newBuilder()
                        .setAds(AggregatedConfigSource.getDefaultInstance())
                        .setResourceApiVersion(ApiVersion.V3)))
        .addHttpFilters(
            HttpFilter.newBuilder()
                .setName("envoy.filters.http.router")
                .setTypedConfig(Any.pack(Router.getDefaultInstance())))
        .build();
  }

  private Translation translate(ListenerSpec spec) {
    return translator.translate(listeners(List.of(spec), List.of()));
  }

  @Test
  void apiListenerWrapsTheConnectionManagerForGrpcProxyless() {
    Listener l = listener(translate(new ListenerSpec("greeter", true, null, null, "greeter-routes")), "greeter");
    assertThat(l)
        .isEqualTo(
            Listener.newBuilder()
                .setName("greeter")
                .setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(expectedHcm("greeter", "greeter-routes"))))
                .build());
  }

  @Test
  void socketListenerBindsItsAddressWithOneConnectionManagerFilterChain() {
    Listener l = listener(translate(new ListenerSpec("ingress", false, "0.0.0.0", 10000, "web")), "ingress");
    assertThat(l)
        .isEqualTo(
            Listener.newBuilder()
                .setName("ingress")
                .setAddress(
                    Address.newBuilder()
                        .setSocketAddress(SocketAddress.newBuilder().setAddress("0.0.0.0").setPortValue(10000)))
                .addFilterChains(
                    FilterChain.newBuilder()
                        .addFilters(
                            Filter.newBuilder()
                                .setName("envoy.filters.network.http_connection_manager")
                                .setTypedConfig(Any.pack(expectedHcm("ingress", "web")))))
                .build());
  }

  @Test
  void connectionManagerEndsInTheRouterFilterAndFetchesRoutesOverAds() throws InvalidProtocolBufferException {
    Listener l = listener(translate(new ListenerSpec("greeter", true, null, null, "greeter")), "greeter");
    HttpConnectionManager hcm = l.getApiListener().getApiListener().unpack(HttpConnectionManager.class);
    assertThat(hcm.getHttpFiltersList()).extracting(HttpFilter::getName).containsExactly("envoy.filters.http.router");
    assertThat(hcm.getHttpFilters(0).getTypedConfig().is(Router.class)).isTrue();
    assertThat(hcm.getRds().getConfigSource().hasAds()).isTrue();
    assertThat(hcm.getRds().getConfigSource().getResourceApiVersion()).isEqualTo(ApiVersion.V3);
  }

  @Test
  void referencesItsRouteConfig() {
    var resource =
        Translations.resource(translate(new ListenerSpec("ingress", false, "::", 8443, "web")), XdsType.LISTENER, "ingress");
    assertThat(resource.references()).containsExactly("web");
  }

  @Test
  void listsListenersByNameAndKeepsTheFirstOfADuplicateName() {
    Translation t =
        translator.translate(
            listeners(
                List.of(
                    new ListenerSpec("b", true, null, null, "first"),
                    new ListenerSpec("a", true, null, null, "r"),
                    new ListenerSpec("b", true, null, null, "second")),
                List.of()));
    assertThat(t.ofType(XdsType.LISTENER)).extracting(r -> r.name()).containsExactly("a", "b");
    assertThat(Translations.resource(t, XdsType.LISTENER, "b").references()).containsExactly("first");
  }
}
