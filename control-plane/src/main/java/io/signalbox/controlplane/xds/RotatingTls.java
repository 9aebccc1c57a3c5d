package io.signalbox.controlplane.xds;

import io.grpc.netty.shaded.io.grpc.netty.GrpcHttp2ConnectionHandler;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.InternalProtocolNegotiator;
import io.grpc.netty.shaded.io.grpc.netty.InternalProtocolNegotiators;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.NotSslRecordException;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslHandler;
import io.grpc.netty.shaded.io.netty.util.AsciiString;
import io.signalbox.controlplane.tls.TlsMaterial;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLException;

/**
 * TLS on the xDS port, with certificate rotation and every failed handshake accounted for.
 *
 * <p><b>Rotation.</b> grpc-java binds a server to one {@link SslContext}; its own reloading key and
 * trust managers re-read files on a schedule (a minute at the least). Here the negotiator that
 * starts each connection's handshake is swapped as soon as {@link TlsMaterial} changes: new
 * connections use the new certificate, key and CA at once, established connections keep the TLS
 * session they have, and no stream is dropped.
 *
 * <p><b>Refusals before the first request.</b> A plaintext client, an untrusted client certificate
 * or any other failed handshake never becomes a gRPC call, so no interceptor sees it. A small
 * handler placed after grpc's own TLS handler receives the failure grpc forwards down the pipeline
 * (the same one it would log) and reports it with the peer's address. This uses grpc-netty's
 * {@code Internal*} negotiator API, as grpc-xds's own server does; {@code MutualTlsTest} fails if
 * an upgrade changes how it behaves.
 */
final class RotatingTls implements InternalProtocolNegotiator.ProtocolNegotiator {

  private static final AsciiString HTTPS = AsciiString.of("https");

  private final Refusals refusals;
  private volatile InternalProtocolNegotiator.ProtocolNegotiator current;

  RotatingTls(TlsMaterial material, Refusals refusals) {
    this.refusals = refusals;
    this.current = InternalProtocolNegotiators.serverTls(context(material));
  }

  /** New handshakes use {@code material} from now on. */
  void update(TlsMaterial material) {
    // Built before the swap, so a bad set (which CertificateFiles already refuses) never leaves a gap.
    current = InternalProtocolNegotiators.serverTls(context(material));
  }

  static SslContext context(TlsMaterial material) {
    SslContextBuilder builder = GrpcSslContexts.configure(
        SslContextBuilder.forServer(material.key(), material.chain()));
    if (!material.clientCas().isEmpty()) {
      // OPTIONAL, not REQUIRE: StreamGate refuses every stream of a connection without a certificate
      // with a status the client can read, after auditing it with the peer's address. A presented
      // certificate is verified here, during the handshake, as with REQUIRE.
      builder.trustManager(new ClientCertificateTrust(material.clientCas())).clientAuth(ClientAuth.OPTIONAL);
    }
    try {
      return builder.build();
    } catch (SSLException e) {
      throw new IllegalStateException("cannot build the xDS TLS context for " + material.describe() + ": " + e, e);
    }
  }

  @Override
  public ChannelHandler newHandler(GrpcHttp2ConnectionHandler grpcHandler) {
    return new HandshakeWatch(current.newHandler(grpcHandler), refusals);
  }

  @Override
  public AsciiString scheme() {
    return HTTPS;
  }

  @Override
  public void close() {
    current.close();
  }

  /**
   * Installs grpc's TLS negotiation in front of itself and reports the exception that negotiation
   * forwards when a handshake fails. Once the handshake succeeded, exceptions belong to the HTTP/2
   * connection and pass by unreported.
   */
  static final class HandshakeWatch extends ChannelInboundHandlerAdapter {
    private final ChannelHandler negotiation;
    private final Refusals refusals;
    private boolean reported;

    HandshakeWatch(ChannelHandler negotiation, Refusals refusals) {
      this.negotiation = negotiation;
      this.refusals = refusals;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      ctx.pipeline().addBefore(ctx.name(), null, negotiation);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      SslHandler ssl = ctx.pipeline().get(SslHandler.class);
      boolean handshaken = ssl != null && ssl.handshakeFuture().isSuccess();
      if (!reported && !handshaken) {
        reported = true;
        report(Peer.address(ctx.channel().remoteAddress()), cause);
      }
      ctx.fireExceptionCaught(cause);
    }

    private void report(String peer, Throwable cause) {
      SSLException tls = null;
      for (Throwable t = cause; t != null; t = t.getCause()) {
        if (t instanceof NotSslRecordException) {
          refusals.refuse(Refusal.Reason.PLAINTEXT, peer, null, null,
              "the client spoke plaintext to the xDS port, which requires TLS (xds.tls)");
          return;
        }
        if (t instanceof ClientCertificateTrust.Untrusted untrusted) {
          refusals.refuse(Refusal.Reason.UNTRUSTED_CERTIFICATE, peer, null, untrusted.subject(),
              "the client certificate is not trusted by xds.tls.clientCaFile: " + untrusted.getMessage());
          return;
        }
        if (t instanceof SSLException ssl && tls == null) {
          tls = ssl;
        }
        if (t instanceof ClosedChannelException || (tls == null && t instanceof IOException)) {
          return; // The client went away (a TCP health check, a reset): nothing was refused.
        }
      }
      if (tls != null) {
        refusals.refuse(Refusal.Reason.TLS_HANDSHAKE, peer, null, null, "TLS handshake failed: " + tls.getMessage());
      }
    }
  }
}
