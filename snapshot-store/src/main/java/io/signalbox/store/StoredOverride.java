package io.signalbox.store;

import java.time.Instant;
import java.util.Objects;

/**
 * An operator override as stored: {@code kind} is {@code drain}, {@code eject} or {@code weight}.
 *
 * @param value the weight, for kind {@code weight}; null otherwise
 * @param deadline the drain deadline, or the end of an ejection; null for a weight
 */
public record StoredOverride(
    String cluster, String address, int port, String kind, Integer value, String actor, String reason,
    Instant createdAt, Instant deadline) {

  public StoredOverride {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(actor, "actor");
    reason = reason == null ? "" : reason;
    Objects.requireNonNull(createdAt, "createdAt");
  }

  public boolean sameTarget(String c, String a, int p, String k) {
    return cluster.equals(c) && address.equals(a) && port == p && kind.equals(k);
  }
}
