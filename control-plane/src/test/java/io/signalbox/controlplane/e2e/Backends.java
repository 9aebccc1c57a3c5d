package io.signalbox.controlplane.e2e;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Real gRPC backends on loopback; each answers with its own name. */
final class Backends implements AutoCloseable {

  private final List<Server> servers = new ArrayList<>();
  private final List<String> names = new ArrayList<>();

  static Backends start(String... names) throws IOException {
    Backends b = new Backends();
    for (String name : names) {
      Server s = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
          .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
            @Override
            public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
              response.onNext(SimpleResponse.newBuilder().setResponseMessage(name).build());
              response.onCompleted();
            }
          })
          .build()
          .start();
      b.servers.add(s);
      b.names.add(name);
    }
    return b;
  }

  int port(String name) {
    return servers.get(names.indexOf(name)).getPort();
  }

  @Override
  public void close() throws InterruptedException {
    for (Server s : servers) {
      s.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
