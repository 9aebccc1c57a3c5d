package io.signalbox.controlplane.demo;

import io.grpc.Server;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The demo's backends: real gRPC servers on loopback ports the system picks. Each serves
 * {@code grpc.health.v1.Health/Check} (a service every gRPC install has, so the demo needs no
 * proto of its own) and counts the requests it answered, which is the per-backend traffic the demo
 * prints.
 */
public final class DemoBackends implements AutoCloseable {

  /** One backend: its name ({@code b1}), where it listens, and how many requests it answered. */
  public static final class Backend {
    private final String name;
    private final Server server;
    private final AtomicLong answered;

    private Backend(String name, Server server, AtomicLong answered) {
      this.name = name;
      this.server = server;
      this.answered = answered;
    }

    public String name() {
      return name;
    }

    public int port() {
      return server.getPort();
    }

    /** {@code 127.0.0.1:PORT}, as the CLI's drain takes it. */
    public String address() {
      return "127.0.0.1:" + port();
    }

    public long answered() {
      return answered.get();
    }
  }

  private final List<Backend> backends;

  private DemoBackends(List<Backend> backends) {
    this.backends = List.copyOf(backends);
  }

  /** Starts {@code count} backends named {@code b1}..{@code bN}, each on any free loopback port. */
  public static DemoBackends start(int count) {
    return start(count, 0, line -> { });
  }

  /**
   * Starts {@code count} backends named {@code b1}..{@code bN}, {@code bI} on port
   * {@code basePort + I - 1} so that the README's examples name real endpoints
   * ({@code 127.0.0.1:50052} is {@code b2}); a port that is taken falls back to a free one, said
   * through {@code note}. {@code basePort} 0: every backend on any free port.
   */
  public static DemoBackends start(int count, int basePort, Consumer<String> note) {
    List<Backend> started = new ArrayList<>();
    try {
      for (int i = 1; i <= count; i++) {
        AtomicLong answered = new AtomicLong();
        Server server;
        try {
          server = serve(basePort == 0 ? 0 : basePort + i - 1, answered);
        } catch (IOException taken) {
          server = serve(0, answered);
          note.accept("demo: 127.0.0.1:" + (basePort + i - 1) + " is taken; b" + i + " listens on 127.0.0.1:"
              + server.getPort() + " instead");
        }
        started.add(new Backend("b" + i, server, answered));
      }
    } catch (IOException e) {
      new DemoBackends(started).close();
      throw new UncheckedIOException("could not start a demo backend on loopback", e);
    }
    return new DemoBackends(started);
  }

  private static Server serve(int port, AtomicLong answered) throws IOException {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
        .addService(new CountingHealth(answered))
        .build()
        .start();
  }

  public List<Backend> all() {
    return backends;
  }

  @Override
  public void close() {
    backends.forEach(b -> b.server.shutdownNow());
    for (Backend b : backends) {
      try {
        b.server.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static final class CountingHealth extends HealthGrpc.HealthImplBase {
    private final AtomicLong answered;

    CountingHealth(AtomicLong answered) {
      this.answered = answered;
    }

    @Override
    public void check(HealthCheckRequest request, StreamObserver<HealthCheckResponse> response) {
      answered.incrementAndGet();
      response.onNext(HealthCheckResponse.newBuilder().setStatus(HealthCheckResponse.ServingStatus.SERVING).build());
      response.onCompleted();
    }
  }
}
