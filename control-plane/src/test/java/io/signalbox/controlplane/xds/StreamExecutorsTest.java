package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.netty.shaded.io.netty.channel.DefaultEventLoop;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A stream that starts on a Netty event loop sends on that loop; one that starts elsewhere gets a
 * sequential executor over the pool: in both, sends run one at a time in the order given.
 */
class StreamExecutorsTest {

  @Test
  void aStreamStartedOnAnEventLoopSendsOnThatLoop() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    DefaultEventLoop loop = new DefaultEventLoop();
    try {
      StreamExecutors executors = new StreamExecutors(pool);
      Executor chosen = loop.submit(executors::next).get(5, TimeUnit.SECONDS);

      assertThat(chosen).isSameAs(loop);
      assertThat(ranInOrderOn(chosen)).containsOnly(threadOf(loop));
    } finally {
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      pool.shutdownNow();
    }
  }

  @Test
  void aStreamStartedElsewhereSendsInOrderOnThePool() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, "pool"));
    try {
      Executor chosen = new StreamExecutors(pool).next();

      assertThat(chosen).isNotSameAs(pool);
      assertThat(ranInOrderOn(chosen)).containsOnly("pool");
    } finally {
      pool.shutdownNow();
    }
  }

  /** Runs 200 numbered tasks on {@code executor}; checks their order; returns the threads they ran on. */
  private static List<String> ranInOrderOn(Executor executor) throws InterruptedException {
    List<Integer> order = new CopyOnWriteArrayList<>();
    List<String> threads = new CopyOnWriteArrayList<>();
    CountDownLatch done = new CountDownLatch(200);
    for (int i = 0; i < 200; i++) {
      int n = i;
      executor.execute(() -> {
        order.add(n);
        threads.add(Thread.currentThread().getName());
        done.countDown();
      });
    }
    assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(order).containsExactlyElementsOf(IntStream.range(0, 200).boxed().toList());
    return threads;
  }

  private static String threadOf(DefaultEventLoop loop) throws Exception {
    return loop.submit(() -> Thread.currentThread().getName()).get(5, TimeUnit.SECONDS);
  }
}
