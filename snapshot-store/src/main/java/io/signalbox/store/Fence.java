package io.signalbox.store;

import java.util.Objects;

/**
 * The leader's fencing token: an epoch is appended only while {@code replicaId} holds the lease
 * with this {@code term}, checked in the append's own transaction.
 */
public record Fence(String replicaId, long term) {
  public Fence {
    Objects.requireNonNull(replicaId, "replicaId");
  }
}
