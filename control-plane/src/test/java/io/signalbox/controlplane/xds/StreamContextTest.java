package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A stream's state lives in its serializing context, and no thread waits for a stream another
 * thread is busy with: the writer's release goes on to the next stream and the busy thread flushes
 * this one after its task; a status reader takes what was published and the fleet list catches up;
 * "who holds this" answers yes while it cannot look, so a drain waits rather than ends early.
 */
class StreamContextTest {

  private final TestResources resources = new TestResources();

  @Test
  void aReleaseAndTheReadersGoOnWhileAnotherThreadIsBusyWithTheStream() throws Exception {
    InProcessAds ads = new InProcessAds(Clock.systemUTC());
    ads.publish(resources.with("a", List.of(1), "b", List.of(2)));
    InProcessAds.Client busy = ads.connect("busy");
    busy.subscribe(XdsType.ENDPOINT, List.of("a"));
    busy.ack(XdsType.ENDPOINT);
    InProcessAds.Client idle = ads.connect("idle");
    idle.subscribe(XdsType.ENDPOINT, List.of("a"));
    idle.ack(XdsType.ENDPOINT);

    CountDownLatch inTask = new CountDownLatch(1);
    CountDownLatch letGo = new CountDownLatch(1);
    Thread other = new Thread(() -> busy.context().execute(() -> {
      inTask.countDown();
      try {
        letGo.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }), "busy-with-the-stream");
    other.start();
    assertThat(inTask.await(10, TimeUnit.SECONDS)).isTrue();

    Snapshot second = resources.with("a", List.of(1, 3), "b", List.of(2));
    ads.publish(second); // returns: the busy stream's flush is left to the thread running its tasks
    assertThat(idle.unanswered()).containsKey(XdsType.ENDPOINT);
    assertThat(busy.unanswered()).doesNotContainKey(XdsType.ENDPOINT);
    assertThat(ads.holders(XdsType.ENDPOINT, "b")).extracting(ClientStatus::nodeId)
        .as("a busy stream counts as a holder of anything").containsExactly("busy");
    long before = epochOf(ads, "busy");

    letGo.countDown();
    other.join(10_000);
    assertThat(busy.unanswered()).containsKey(XdsType.ENDPOINT);
    busy.ack(XdsType.ENDPOINT);
    await().atMost(Duration.ofSeconds(10)).until(() -> epochOf(ads, "busy") == second.epoch());
    assertThat(before).isLessThan(second.epoch());
    assertThat(ads.holders(XdsType.ENDPOINT, "b")).isEmpty();
  }

  private static long epochOf(InProcessAds ads, String node) {
    return ads.clients().stream().filter(c -> c.nodeId().equals(node)).findFirst().orElseThrow().epoch();
  }
}
