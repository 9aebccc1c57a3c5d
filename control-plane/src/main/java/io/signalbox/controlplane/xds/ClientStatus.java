package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.config.core.v3.Node;
import java.time.Instant;
import java.util.Map;

/**
 * What Signalbox knows about one connected client stream, keyed by xDS type URL.
 *
 * @param epoch the newest epoch this client fully holds: the lowest {@code syncedEpoch} of its types
 */
public record ClientStatus(
    String nodeId,
    String nodeCluster,
    String zone,
    String userAgent,
    long streamId,
    boolean delta,
    Instant connectedAt,
    long epoch,
    Map<String, TypeStatus> types) {

  static ClientStatus of(long streamId, boolean delta, Instant connectedAt, Node node, Map<String, TypeStatus> types) {
    String agent = node.getUserAgentName()
        + (node.hasUserAgentVersion() ? " " + node.getUserAgentVersion() : "");
    long epoch = types.values().stream().mapToLong(TypeStatus::syncedEpoch).min().orElse(0);
    return new ClientStatus(node.getId(), node.getCluster(), node.getLocality().getZone(), agent.trim(),
        streamId, delta, connectedAt, epoch, Map.copyOf(types));
  }
}
