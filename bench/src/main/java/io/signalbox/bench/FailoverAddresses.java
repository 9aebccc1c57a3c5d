package io.signalbox.bench;

import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Every replica's address for one client, its own first and the others after it in turn: with
 * grpc's default {@code pick_first}, a channel whose replica died connects to the next one that
 * answers when its stream is reopened. Spread that way, the clients of a killed replica land on
 * every survivor, not all on one.
 */
final class FailoverAddresses extends NameResolver.Factory {

  private static final String SCHEME = "replicas";
  private final List<EquivalentAddressGroup> addresses;

  private FailoverAddresses(int[] ports, int home) {
    List<EquivalentAddressGroup> in = new ArrayList<>();
    for (int k = 0; k < ports.length; k++) {
      in.add(new EquivalentAddressGroup(new InetSocketAddress("127.0.0.1", ports[(home + k) % ports.length])));
    }
    this.addresses = List.copyOf(in);
  }

  /** A channel builder for a client whose replica is {@code ports[home]}. */
  @SuppressWarnings("deprecation") // nameResolverFactory: the one way to give one channel its own resolver
  static NettyChannelBuilder channel(int[] ports, int home) {
    return NettyChannelBuilder.forTarget(SCHEME + ":///signalbox").nameResolverFactory(new FailoverAddresses(ports, home));
  }

  @Override
  public NameResolver newNameResolver(URI target, NameResolver.Args args) {
    if (!SCHEME.equals(target.getScheme())) {
      return null;
    }
    return new NameResolver() {
      @Override
      public String getServiceAuthority() {
        return "signalbox";
      }

      @Override
      public void start(Listener2 listener) {
        listener.onResult(ResolutionResult.newBuilder().setAddresses(addresses).build());
      }

      @Override
      public void shutdown() {}
    };
  }

  @Override
  public String getDefaultScheme() {
    return SCHEME;
  }
}
