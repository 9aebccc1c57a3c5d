package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.config.core.v3.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * What Signalbox knows about one connected client stream, keyed by xDS type URL.
 *
 * @param wave the rollout wave this client is in
 * @param epoch the newest epoch this client holds exactly, for every type: the lowest {@code
 *     syncedEpoch} of its types. "Holds epoch N" means exactly this (see {@link #holds}).
 * @param lastConvergence how long the client took to hold its newest epoch, from the epoch's creation
 * @param replicaId the replica whose xDS server holds the stream; empty for this process's own
 *     before the fleet view names them
 */
public record ClientStatus(
    String nodeId,
    String nodeCluster,
    String zone,
    String userAgent,
    String region,
    long streamId,
    boolean delta,
    Instant connectedAt,
    String wave,
    long epoch,
    Duration lastConvergence,
    Map<String, TypeStatus> types,
    String replicaId) {

  public ClientStatus {
    replicaId = replicaId == null ? "" : replicaId;
  }

  /** A stream of this process's own xDS server. */
  public ClientStatus(String nodeId, String nodeCluster, String zone, String userAgent, String region, long streamId,
      boolean delta, Instant connectedAt, String wave, long epoch, Duration lastConvergence,
      Map<String, TypeStatus> types) {
    this(nodeId, nodeCluster, zone, userAgent, region, streamId, delta, connectedAt, wave, epoch, lastConvergence,
        types, "");
  }

  /** The same stream, named as {@code replica}'s. */
  public ClientStatus onReplica(String replica) {
    return new ClientStatus(nodeId, nodeCluster, zone, userAgent, region, streamId, delta, connectedAt, wave, epoch,
        lastConvergence, types, replica);
  }

  /**
   * @param previous the stream's status before this one, or null: a stream's node is set once, so
   *     when the ids agree its node fields are taken from there instead of read and joined again
   *     (a fleet-wide status walk rebuilds every client's status after each change)
   * @param types immutable, kept as it is
   */
  static ClientStatus of(long streamId, boolean delta, Instant connectedAt, Node node, String wave,
      Duration lastConvergence, Map<String, TypeStatus> types, ClientStatus previous) {
    long epoch = Long.MAX_VALUE;
    for (TypeStatus t : types.values()) {
      epoch = Math.min(epoch, t.syncedEpoch());
    }
    epoch = types.isEmpty() ? 0 : epoch;
    if (previous != null && previous.nodeId().equals(node.getId())) {
      return new ClientStatus(previous.nodeId(), previous.nodeCluster(), previous.zone(), previous.userAgent(),
          previous.region(), streamId, delta, connectedAt, wave, epoch, lastConvergence, types);
    }
    String agent = node.getUserAgentName()
        + (node.hasUserAgentVersion() ? " " + node.getUserAgentVersion() : "");
    return new ClientStatus(node.getId(), node.getCluster(), node.getLocality().getZone(), agent.trim(),
        node.getLocality().getRegion(), streamId, delta, connectedAt, wave, epoch, lastConvergence, types);
  }

  /**
   * Whether this client holds {@code epoch}: it ACKed, for every type, the version that epoch (or a
   * newer one) gives it, and refuses nothing it is offered. The one predicate behind SAFE, waves,
   * drain safety and per-group last-safe.
   */
  public boolean holds(long epoch) {
    return this.epoch >= epoch && !refusing();
  }

  /** Whether this client has a standing NACK: it refuses a version it is still offered. */
  public boolean refusing() {
    for (TypeStatus t : types.values()) {
      if (!t.refusing().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** The most recent NACK of any type that concerns {@code snapshotEpoch}, if any. */
  public NackStatus nackOf(long snapshotEpoch) {
    for (TypeStatus t : types.values()) {
      if (t.nack() != null && t.nack().snapshotEpoch() == snapshotEpoch) {
        return t.nack();
      }
    }
    return null;
  }
}
