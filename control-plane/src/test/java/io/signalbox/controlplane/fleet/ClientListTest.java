package io.signalbox.controlplane.fleet;

import static io.signalbox.controlplane.fleet.Clusters.CDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.xds.AdsServer;
import io.signalbox.controlplane.xds.ClientStatus;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link AdsServer#clients()} hands out one list while no stream changes, and a new one as soon as a
 * stream opens, closes, is answered, or ACKs.
 */
class ClientListTest {

  private final Clusters clusters = new Clusters();
  private AdsServer xds;

  @BeforeEach
  void start() {
    xds = AdsServer.start("127.0.0.1", 0, Clock.systemUTC(), new SimpleMeterRegistry());
  }

  @AfterEach
  void stop() {
    xds.close();
  }

  private long ackedEpoch(String node) {
    return xds.clients().stream().filter(c -> c.nodeId().equals(node)).findFirst()
        .map(c -> c.types().get(CDS).ackedEpoch()).orElse(0L);
  }

  @Test
  void theListIsKeptUntilAStreamChanges() throws Exception {
    xds.publish(clusters.next("a", 1));
    try (AdsClient n1 = new AdsClient(xds.port(), "n1", CDS)) {
      n1.ack(n1.next());
      await().until(() -> ackedEpoch("n1") == 1);
      List<ClientStatus> quiet = xds.clients();
      assertThat(xds.clients()).as("nothing changed").isSameAs(quiet);

      xds.publish(clusters.next("a", 2));
      n1.ack(n1.next());
      // A stale list would never show the ACK of epoch 2.
      await().until(() -> ackedEpoch("n1") == 2);
      assertThat(xds.clients()).isNotSameAs(quiet);

      try (AdsClient n2 = new AdsClient(xds.port(), "n2", CDS)) {
        n2.ack(n2.next());
        await().until(() -> ackedEpoch("n2") == 2);
        assertThat(xds.clients()).extracting(ClientStatus::nodeId).containsExactly("n1", "n2");
      }
      await().until(() -> xds.clients().size() == 1);
    }
  }

  @Test
  void keepsTheOrderByNodeAndTheStatusOfAClientThatDidNotChange() throws Exception {
    xds.publish(clusters.next("a", 1));
    try (AdsClient n3 = new AdsClient(xds.port(), "n3", CDS); AdsClient n1 = new AdsClient(xds.port(), "n1", CDS)) {
      n3.ack(n3.next());
      n1.ack(n1.next());
      await().until(() -> ackedEpoch("n1") == 1 && ackedEpoch("n3") == 1);
      List<ClientStatus> before = xds.clients();
      assertThat(before).extracting(ClientStatus::nodeId).containsExactly("n1", "n3");

      try (AdsClient n2 = new AdsClient(xds.port(), "n2", CDS)) {
        n2.ack(n2.next());
        await().until(() -> ackedEpoch("n2") == 1);
        List<ClientStatus> three = xds.clients();

        assertThat(three).extracting(ClientStatus::nodeId).containsExactly("n1", "n2", "n3");
        // Nothing about n1 and n3 moved: the same instances, which is how consumers skip them.
        assertThat(three.get(0)).isSameAs(before.get(0));
        assertThat(three.get(2)).isSameAs(before.get(1));
      }
      await().until(() -> xds.clients().size() == 2);

      xds.publish(clusters.next("a", 2));
      n1.ack(n1.next());
      n3.ack(n3.next());
      await().until(() -> ackedEpoch("n1") == 2 && ackedEpoch("n3") == 2);
      List<ClientStatus> after = xds.clients();
      assertThat(after).extracting(ClientStatus::nodeId).containsExactly("n1", "n3");
      assertThat(after.get(0)).isNotSameAs(before.get(0));
      assertThat(after.get(0).types().get(CDS).ackedEpoch()).isEqualTo(2);
    }
  }
}
