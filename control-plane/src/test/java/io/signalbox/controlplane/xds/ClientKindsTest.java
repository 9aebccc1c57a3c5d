package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.signalbox.controlplane.config.ClientKindSettings;
import io.signalbox.validation.ClientKind;
import io.signalbox.validation.DrainingAs;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientKindsTest {

  private final ClientKinds kinds = new ClientKinds(List.of(
      new ClientKindSettings(List.of("shop-armeria"), ClientKind.ARMERIA, null),
      new ClientKindSettings(List.of("careful-java"), null, DrainingAs.OMIT),
      new ClientKindSettings(List.of("shop-armeria", "late"), ClientKind.ENVOY, null)));

  private static Node node(String cluster, String userAgent) {
    return Node.newBuilder().setId("n").setCluster(cluster).setUserAgentName(userAgent).build();
  }

  @Test
  void aNodeGroupTellsAClientThatSendsNoUserAgent() {
    assertThat(kinds.kindOf(node("shop-armeria", ""))).contains(ClientKind.ARMERIA);
    assertThat(kinds.kindOf(node("elsewhere", ""))).isEmpty();
  }

  @Test
  void theUserAgentTellsTheRestAndTheFirstMatchingGroupWins() {
    assertThat(kinds.kindOf(node("elsewhere", "gRPC Node Pure JS"))).contains(ClientKind.GRPC_JS);
    // A group that names no kind leaves it to the user agent.
    assertThat(kinds.kindOf(node("careful-java", "gRPC Java"))).contains(ClientKind.GRPC_JAVA);
    // The operator's word wins over the user agent; the first group listing the cluster decides.
    assertThat(kinds.kindOf(node("shop-armeria", "gRPC Java"))).contains(ClientKind.ARMERIA);
    // As the fleet's client list reports them: name and version in one string.
    assertThat(kinds.kindOf("gRPC Java 1.85.1", "elsewhere")).contains(ClientKind.GRPC_JAVA);
  }

  @Test
  void drainingEndpointsGoToArmeriaAsUnhealthyUnlessItsGroupSaysOtherwise() {
    assertThat(kinds.drainingAs(node("shop-armeria", ""))).isEqualTo(DrainingAs.UNHEALTHY);
    assertThat(kinds.drainingAs(node("elsewhere", "gRPC Java"))).isEqualTo(DrainingAs.DRAINING);
    assertThat(kinds.drainingAs(node("elsewhere", ""))).isEqualTo(DrainingAs.DRAINING);
    assertThat(kinds.drainingAs(node("careful-java", "gRPC Java"))).isEqualTo(DrainingAs.OMIT);
    assertThat(ClientKinds.NONE.drainingAs(node("shop-armeria", ""))).isEqualTo(DrainingAs.DRAINING);
  }
}
