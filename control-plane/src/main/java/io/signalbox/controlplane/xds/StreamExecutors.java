package io.signalbox.controlplane.xds;

import com.google.common.util.concurrent.MoreExecutors;
import io.envoyproxy.controlplane.server.ExecutorGroup;
import io.grpc.netty.shaded.io.netty.util.internal.ThreadExecutorMap;
import java.util.concurrent.Executor;

/**
 * The executor each ADS stream's responses leave on: one per stream, running its sends one at a
 * time in the order they were computed, so no response is written under a stream's lock and
 * streams proceed in parallel.
 *
 * <p>java-control-plane asks for it when a stream starts, and grpc starts a call on the thread of
 * the connection's event loop (the server runs with a direct executor). That event loop is the
 * executor: it is sequential, it is the thread that writes the connection anyway, and a response
 * handed to it is serialized, written and flushed by that one thread, where a pool of our own
 * made each response hop twice (pool thread, then event loop). The CPU that saved was within the
 * load tool's spread (docs/benchmarks-history.md, "Results: issue 17, fifth part"); the hop is gone all
 * the same. Off an event loop (a caller that is not grpc's transport) the stream gets a
 * sequential executor over {@code pool}.
 */
final class StreamExecutors implements ExecutorGroup {

  private final Executor pool;

  StreamExecutors(Executor pool) {
    this.pool = pool;
  }

  @Override
  public Executor next() {
    Executor loop = ThreadExecutorMap.currentExecutor();
    return loop != null ? loop : MoreExecutors.newSequentialExecutor(pool);
  }
}
