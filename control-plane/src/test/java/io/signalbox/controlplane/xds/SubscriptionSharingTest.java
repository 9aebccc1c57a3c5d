package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.snapshot.XdsType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Clients subscribing to the same names share one copy of them: the heap per client depends on it. */
class SubscriptionSharingTest {

  /** Fresh String instances, as each client's decoded request has. */
  private static List<String> request(int n) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      names.add(new String(("cluster-" + i).toCharArray()));
    }
    return names;
  }

  @Test
  void sameSubscriptionsShareOneSetOfOneCopyOfEachName() {
    Subscription a = new Subscription(XdsType.ENDPOINT, false);
    Subscription b = new Subscription(XdsType.ENDPOINT, false);

    a.subscribeSotw(request(100));
    b.subscribeSotw(request(100));

    assertThat(a.names()).hasSize(100).isSameAs(b.names());
    String fromA = a.names().stream().filter("cluster-7"::equals).findFirst().orElseThrow();
    String fromB = b.names().stream().filter("cluster-7"::equals).findFirst().orElseThrow();
    assertThat(fromA).isSameAs(fromB);

    b.subscribeSotw(request(101));

    assertThat(b.names()).hasSize(101).contains("cluster-100");
    assertThat(a.names()).as("the other client's subscription is untouched").hasSize(100)
        .doesNotContain("cluster-100");
  }

  @Test
  void deltaSubscriptionsChangeWithoutTouchingAnotherClientsSet() {
    Subscription a = new Subscription(XdsType.ENDPOINT, true);
    Subscription b = new Subscription(XdsType.ENDPOINT, true);
    a.subscribeDelta(request(3), List.of(), Map.of(), null);
    b.subscribeDelta(request(3), List.of(), Map.of(), null);
    assertThat(a.names()).isSameAs(b.names());

    b.subscribeDelta(List.of(), List.of("cluster-1"), Map.of(), null);
    b.subscribeDelta(List.of(), List.of(), Map.of(), null);

    assertThat(b.names()).containsExactlyInAnyOrder("cluster-0", "cluster-2");
    assertThat(a.names()).containsExactlyInAnyOrder("cluster-0", "cluster-1", "cluster-2");
  }
}
