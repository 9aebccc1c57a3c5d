package io.signalbox.controlplane.e2e;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.services.MetricRecorder;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.grpc.xds.orca.OrcaMetricReportingServerInterceptor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Real gRPC backends on loopback for the traffic-policy tests: each answers with its own name, fails
 * every call, or answers and attaches an ORCA load report (grpc-java's own server interceptor) with
 * a fixed utilization and rate, which is what client-side weighted round robin weighs endpoints by.
 */
final class TrafficBackends implements AutoCloseable {

  private final Map<String, Server> servers = new LinkedHashMap<>();

  /** Answers every call with its name. */
  TrafficBackends answering(String... names) throws IOException {
    for (String name : names) {
      servers.put(name, start(service(name, null)));
    }
    return this;
  }

  /** Stops {@code name}'s server and starts another answering with the same name on a new port: a pod's restart. */
  TrafficBackends replace(String name) throws IOException, InterruptedException {
    Server old = servers.remove(name);
    if (old != null) {
      old.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    servers.put(name, start(service(name, null)));
    return this;
  }

  /** Fails every call with UNAVAILABLE, as a backend that lost its database would. */
  TrafficBackends unavailable(String name) throws IOException {
    servers.put(name, start(service(name, Status.UNAVAILABLE.withDescription(name + " is unavailable"))));
    return this;
  }

  /** Answers with its name and reports {@code utilization} at 100 requests per second with every answer. */
  TrafficBackends reportingLoad(String name, double utilization) throws IOException {
    MetricRecorder load = MetricRecorder.newInstance();
    load.setApplicationUtilizationMetric(utilization);
    load.setQpsMetric(100);
    servers.put(name, start(ServerInterceptors.intercept(service(name, null),
        OrcaMetricReportingServerInterceptor.create(load))));
    return this;
  }

  int port(String name) {
    Server server = servers.get(name);
    if (server == null) {
      throw new IllegalArgumentException("no backend " + name + " among " + servers.keySet());
    }
    return server.getPort();
  }

  private static SimpleServiceGrpc.SimpleServiceImplBase service(String name, Status failure) {
    return new SimpleServiceGrpc.SimpleServiceImplBase() {
      @Override
      public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
        if (failure != null) {
          response.onError(failure.asRuntimeException());
          return;
        }
        response.onNext(SimpleResponse.newBuilder().setResponseMessage(name).build());
        response.onCompleted();
      }
    };
  }

  private static Server start(io.grpc.ServerServiceDefinition service) throws IOException {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(service).build().start();
  }

  private static Server start(io.grpc.BindableService service) throws IOException {
    return start(service.bindService());
  }

  @Override
  public void close() throws InterruptedException {
    for (Server s : servers.values()) {
      s.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
