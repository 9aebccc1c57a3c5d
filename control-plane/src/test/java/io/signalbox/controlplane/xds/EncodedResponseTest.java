package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.envoyproxy.envoy.service.discovery.v3.ResourceError;
import io.envoyproxy.envoy.service.discovery.v3.ResourceName;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Encoding once must not change a byte: what a client reads from a response encoded once and
 * stamped with its nonce is exactly the protobuf serialization of the response built and
 * serialized per stream, as java-control-plane's server built it.
 */
class EncodedResponseTest {

  private final ResponseEncoder encoder = new ResponseEncoder();

  private static XdsResource assignment(String cluster, int port) {
    ClusterLoadAssignment cla = ClusterLoadAssignment.newBuilder().setClusterName(cluster)
        .addEndpoints(io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints.newBuilder()
            .addLbEndpoints(io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint.newBuilder().setEndpoint(
                io.envoyproxy.envoy.config.endpoint.v3.Endpoint.newBuilder().setAddress(
                    io.envoyproxy.envoy.config.core.v3.Address.newBuilder().setSocketAddress(
                        io.envoyproxy.envoy.config.core.v3.SocketAddress.newBuilder().setAddress("127.0.0.1")
                            .setPortValue(port))))))
        .build();
    return new XdsResource.Built(XdsType.ENDPOINT, cluster, "v-" + cluster + "-" + port, 1, cla, Any.pack(cla),
        Set.of());
  }

  private static byte[] drained(EncodedResponse.Stamped stamped) throws Exception {
    InputStream in = EncodedResponse.MARSHALLER.stream(stamped);
    assertThat(in.available()).isEqualTo(stamped.size());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ((io.grpc.Drainable) in).drainTo(out);
    return out.toByteArray();
  }

  @Test
  void aStateOfTheWorldResponseIsTheBytesOfTheMessageBuiltPerStream() throws Exception {
    List<XdsResource> resources = List.of(assignment("a", 1), assignment("b", 2));
    EncodedResponse.Stamped stamped = encoder.sotw(XdsType.ENDPOINT, "42", resources, List.of()).stamped("17");

    DiscoveryResponse perStream = DiscoveryResponse.newBuilder().setVersionInfo("42")
        .addAllResources(resources.stream().map(XdsResource::any).toList())
        .setTypeUrl(XdsType.ENDPOINT.typeUrl()).setNonce("17").build();

    assertThat(drained(stamped)).isEqualTo(perStream.toByteArray());
    assertThat(stamped.toByteArray()).isEqualTo(perStream.toByteArray());
  }

  @Test
  void aDeltaResponseIsTheBytesOfTheMessageBuiltPerStreamWithTheNonceBetweenItsParts() throws Exception {
    List<XdsResource> resources = List.of(assignment("a", 1));
    ResourceError missing = ResourceError.newBuilder()
        .setResourceName(ResourceName.newBuilder().setName("nope"))
        .setErrorDetail(com.google.rpc.Status.newBuilder().setCode(5).setMessage("no such resource")).build();
    EncodedResponse.Stamped stamped = encoder.delta(XdsType.ENDPOINT, "42", resources, List.of("gone"),
        List.of(missing)).stamped("3");

    XdsResource a = resources.get(0);
    DeltaDiscoveryResponse perStream = DeltaDiscoveryResponse.newBuilder().setSystemVersionInfo("42")
        .addResources(Resource.newBuilder().setName(a.name()).setVersion(a.version()).setResource(a.any()))
        .setTypeUrl(XdsType.ENDPOINT.typeUrl()).addRemovedResources("gone").setNonce("3")
        .addResourceErrors(missing).build();

    assertThat(drained(stamped)).isEqualTo(perStream.toByteArray());
  }

  @Test
  void theSameContentIsEncodedOnceForEveryStreamAndEachStreamKeepsItsNonce() throws Exception {
    EncodedResponse first = encoder.sotw(XdsType.ENDPOINT, "7", List.of(assignment("a", 1)), List.of());
    EncodedResponse again = encoder.sotw(XdsType.ENDPOINT, "7", List.of(assignment("a", 1)), List.of());
    EncodedResponse other = encoder.sotw(XdsType.ENDPOINT, "7", List.of(assignment("a", 2)), List.of());

    assertThat(again).isSameAs(first);
    assertThat(other).isNotSameAs(first);
    assertThat(encoder.size()).isEqualTo(2);
    assertThat(DiscoveryResponse.parseFrom(first.stamped("1").toByteArray()).getNonce()).isEqualTo("1");
    assertThat(DiscoveryResponse.parseFrom(first.stamped("2").toByteArray()).getNonce()).isEqualTo("2");
  }
}
