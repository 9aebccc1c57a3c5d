package io.signalbox.model;

import java.time.Duration;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * What a route hashes for {@link LbPolicy#RING_HASH} / {@link LbPolicy#MAGLEV} affinity, as written:
 * exactly one of {@code header}, {@code cookie}, {@code sourceIp}, {@code queryParameter} or
 * {@code channelId} (the validator enforces "exactly one" and reports every bad entry; this record
 * never throws). {@link #key()} is the same choice as a variant, for the translator.
 *
 * @param terminal when this policy yields a hash, the ones after it are not evaluated
 */
public record HashPolicySpec(
    String header, CookieSpec cookie, Boolean sourceIp, String queryParameter, Boolean channelId, Boolean terminal) {

  /** Hash on a cookie; with a {@code ttl}, Envoy sets it when the request lacks it. */
  public record CookieSpec(String name, Duration ttl, String path) {}

  /** The one thing hashed, or null when not exactly one is set (a violation). */
  public HashKey key() {
    long set = Stream.of(header, cookie, sourceIp, queryParameter, channelId).filter(Objects::nonNull).count();
    if (set != 1) {
      return null;
    }
    if (header != null) {
      return new HashKey.Header(header);
    }
    if (cookie != null) {
      return new HashKey.Cookie(cookie.name(), cookie.ttl(), cookie.path());
    }
    if (queryParameter != null) {
      return new HashKey.QueryParameter(queryParameter);
    }
    return sourceIp != null ? new HashKey.SourceIp() : new HashKey.ChannelId();
  }

  public boolean isTerminal() {
    return Boolean.TRUE.equals(terminal);
  }

  /** The input of one hash policy. */
  public sealed interface HashKey {
    record Header(String name) implements HashKey {}

    record Cookie(String name, Duration ttl, String path) implements HashKey {}

    record SourceIp() implements HashKey {}

    record QueryParameter(String name) implements HashKey {}

    /** gRPC's filter state {@code io.grpc.channel_id}: one hash per client channel. */
    record ChannelId() implements HashKey {}
  }
}
