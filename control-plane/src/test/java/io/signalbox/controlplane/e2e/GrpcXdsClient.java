package io.signalbox.controlplane.e2e;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * grpc-java's own xDS client (grpc-xds) against a Signalbox on loopback: its bootstrap, and the
 * channels to Signalbox's listeners, closed together. grpc-xds reads its bootstrap once per JVM, so
 * every end-to-end class runs in its own fork and makes one of these in its {@code @BeforeAll}.
 */
final class GrpcXdsClient implements AutoCloseable {

  private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
  private final List<ManagedChannel> opened = new CopyOnWriteArrayList<>();

  private GrpcXdsClient() {}

  /**
   * Bootstraps grpc-xds: Signalbox's xDS server at 127.0.0.1:{@code xdsPort}, plaintext; this JVM
   * the node {@code nodeId} of node cluster {@code e2e} in zone {@code a}.
   */
  static GrpcXdsClient bootstrap(int xdsPort, String nodeId) {
    return withBootstrap("""
        {"xds_servers": [{"server_uri": "127.0.0.1:%d", "channel_creds": [{"type": "insecure"}],
          "server_features": ["xds_v3"]}],
         "node": {"id": "%s", "cluster": "e2e", "locality": {"zone": "a"}}}
        """.formatted(xdsPort, nodeId));
  }

  /** Bootstraps grpc-xds with {@code json} as it is: for a test of the bootstrap's own options (TLS, trust). */
  static GrpcXdsClient withBootstrap(String json) {
    System.setProperty("io.grpc.xds.bootstrapConfig", json);
    return new GrpcXdsClient();
  }

  /** The channel to {@code xds:///listener}, opened on first use and kept until {@link #close}. */
  ManagedChannel channel(String listener) {
    return channels.computeIfAbsent(listener, GrpcXdsClient::build);
  }

  /**
   * Another channel to {@code xds:///listener}, for a test that needs several (each its own
   * subchannels and hash seed); closed with this client, or earlier by whoever it is handed to.
   */
  ManagedChannel open(String listener) {
    ManagedChannel channel = build(listener);
    opened.add(channel);
    return channel;
  }

  /** Plaintext to the backends: grpc-xds takes the credentials to the xDS server from the bootstrap. */
  private static ManagedChannel build(String listener) {
    return Grpc.newChannelBuilder("xds:///" + listener, InsecureChannelCredentials.create()).build();
  }

  /** Shuts every channel down, each given 5 s to end. */
  @Override
  public void close() throws InterruptedException {
    List<ManagedChannel> all = new ArrayList<>(channels.values());
    all.addAll(opened);
    for (ManagedChannel channel : all) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    channels.clear();
    opened.clear();
  }
}
