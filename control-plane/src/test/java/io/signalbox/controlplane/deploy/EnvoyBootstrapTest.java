package io.signalbox.controlplane.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.ApiConfigSource;
import io.envoyproxy.envoy.config.core.v3.BackoffStrategy;
import io.envoyproxy.envoy.config.core.v3.GrpcService;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/envoy/bootstrap.yaml} read as Envoy reads it, into its v3 {@link Bootstrap}
 * (unknown fields fail the parse), pointing at the Service the Kubernetes base defines.
 */
class EnvoyBootstrapTest {

  private static final Path BOOTSTRAP = Path.of("..", "deploy", "envoy", "bootstrap.yaml");
  private static final String HTTP_PROTOCOL_OPTIONS = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";

  @Test
  void reachesTheXdsServiceOfTheKubernetesBaseOverHttp2WithAdsReconnectBackoff() throws IOException {
    Bootstrap bootstrap = bootstrap();
    ApiConfigSource ads = bootstrap.getDynamicResources().getAdsConfig();

    assertThat(ads.getApiType()).isEqualTo(ApiConfigSource.ApiType.GRPC);
    GrpcService.EnvoyGrpc grpc = ads.getGrpcServices(0).getEnvoyGrpc();
    BackoffStrategy backoff = grpc.getRetryPolicy().getRetryBackOff();
    assertThat(Durations.toMillis(backoff.getBaseInterval())).isPositive();
    assertThat(Durations.compare(backoff.getMaxInterval(), backoff.getBaseInterval())).isPositive();

    Cluster signalbox = bootstrap.getStaticResources().getClustersList().stream()
        .filter(c -> c.getName().equals(grpc.getClusterName())).findFirst()
        .orElseThrow(() -> new AssertionError("no static cluster " + grpc.getClusterName()));
    assertThat(signalbox.getType()).isEqualTo(Cluster.DiscoveryType.STRICT_DNS);
    HttpProtocolOptions http = signalbox.getTypedExtensionProtocolOptionsOrThrow(HTTP_PROTOCOL_OPTIONS)
        .unpack(HttpProtocolOptions.class);
    assertThat(http.getExplicitHttpConfig().hasHttp2ProtocolOptions()).isTrue();
    assertThat(Durations.toSeconds(http.getExplicitHttpConfig().getHttp2ProtocolOptions()
        .getConnectionKeepalive().getInterval())).isGreaterThanOrEqualTo(10); // the server's permitKeepAliveTime

    SocketAddress address = signalbox.getLoadAssignment().getEndpoints(0).getLbEndpoints(0).getEndpoint()
        .getAddress().getSocketAddress();
    Service xds = xdsService();
    assertThat(address.getAddress()).isEqualTo(xds.getMetadata().getName() + "." + baseNamespace() + ".svc.cluster.local");
    assertThat(address.getPortValue()).isEqualTo(xds.getSpec().getPorts().get(0).getPort());
  }

  @Test
  void sendsLoadReportsToTheSameXdsCluster() throws IOException {
    Bootstrap bootstrap = bootstrap();

    ApiConfigSource lrs = bootstrap.getClusterManager().getLoadStatsConfig();
    assertThat(lrs.getApiType()).isEqualTo(ApiConfigSource.ApiType.GRPC);
    assertThat(lrs.getGrpcServicesList()).singleElement()
        .satisfies(s -> assertThat(s.getEnvoyGrpc().getClusterName()).isEqualTo("signalbox"));
  }

  private static Bootstrap bootstrap() throws IOException {
    String json = new ObjectMapper().writeValueAsString(
        new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(Files.readString(BOOTSTRAP)));
    Bootstrap.Builder builder = Bootstrap.newBuilder();
    JsonFormat.parser()
        .usingTypeRegistry(JsonFormat.TypeRegistry.newBuilder().add(HttpProtocolOptions.getDescriptor()).build())
        .merge(json, builder);
    return builder.build();
  }

  private static Service xdsService() throws IOException {
    String services = Files.readString(RenderedOverlay.KUBERNETES.resolve("base").resolve("services.yaml"));
    for (String document : services.split("(?m)^---$")) {
      Service service = new KubernetesSerialization().unmarshal(document, Service.class);
      if ("grpc".equals(service.getSpec().getPorts().get(0).getAppProtocol())) {
        return service;
      }
    }
    throw new AssertionError("deploy/kubernetes/base/services.yaml has no gRPC Service");
  }

  private static String baseNamespace() throws IOException {
    return DeployedConfig.tree(Files.readString(RenderedOverlay.KUBERNETES.resolve("base").resolve("kustomization.yaml")))
        .path("namespace").asText();
  }
}
