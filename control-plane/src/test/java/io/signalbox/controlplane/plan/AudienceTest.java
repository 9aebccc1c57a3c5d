package io.signalbox.controlplane.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.validation.ClientKind;
import io.signalbox.validation.ClientSupportRules;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AudienceTest {

  static ClientStatus client(String id, String group, String wave) {
    return new ClientStatus(id, group, "a", "grpc-java-netty 1.70.0", "", 1, false, Instant.EPOCH, wave, 3, null,
        Map.of());
  }

  @Test
  void countsTheClientsOfEachChangedResourceByGroupAndWave() {
    List<Audience.Change> changes = List.of(new Audience.Change(XdsType.CLUSTER, "greeter", "changed"),
        new Audience.Change(XdsType.ENDPOINT, "api", "added"));
    Map<String, List<ClientStatus>> holders = Map.of("CLUSTER/greeter", List.of(client("web-1", "web", "canary"),
        client("web-2", "web", "rest"), client("batch-1", "", "rest")));

    List<Plan.Recipients> recipients = Audience.recipients(changes,
        (type, name) -> holders.getOrDefault(type + "/" + name, List.of()));

    assertThat(recipients).containsExactly(
        new Plan.Recipients("CLUSTER/greeter", "changed", 3, Map.of("(none)", 1, "web", 2),
            Map.of("canary", 1, "rest", 2)),
        new Plan.Recipients("ENDPOINT/api", "added", 0, Map.of(), Map.of()));
    assertThat(recipients.get(0).groups().keySet()).containsExactly("(none)", "web");
  }

  @Test
  void namesOnlyTheClientKindWarningsTheChangeWouldAdd() {
    Cluster roundRobin = Cluster.newBuilder().setName("greeter").setLbPolicy(Cluster.LbPolicy.ROUND_ROBIN).build();
    Cluster maglev = roundRobin.toBuilder().setLbPolicy(Cluster.LbPolicy.MAGLEV).build();
    Map<ClientKind, Integer> connected = Map.of(ClientKind.GRPC_JAVA, 3);

    List<String> added = Audience.clientKinds(new ClientSupportRules.Served(List.of(maglev), List.of(), List.of()),
        new ClientSupportRules.Served(List.of(roundRobin), List.of(), List.of()), connected);

    assertThat(added).containsExactly(
        "cluster 'greeter': lbPolicy MAGLEV: 3 grpc-java clients will NACK it [client.rejected] (warning)");
    assertThat(Audience.clientKinds(new ClientSupportRules.Served(List.of(maglev), List.of(), List.of()),
        new ClientSupportRules.Served(List.of(maglev), List.of(), List.of()), connected)).isEmpty();
  }

  @Test
  void exitCodesFollowTheOutcome() {
    assertThat(Plan.Outcome.of(false, true).exitCode()).isEqualTo(2);
    assertThat(Plan.Outcome.of(true, true).exitCode()).isEqualTo(4);
    assertThat(Plan.Outcome.of(true, false).exitCode()).isZero();
  }
}
