package io.signalbox.controlplane.config;

import io.signalbox.validation.ClientKind;
import io.signalbox.validation.DrainingAs;
import java.util.List;

/**
 * One entry of {@code xds.clientKinds}: the node group whose {@code node.cluster} is listed runs
 * {@code kind} (for clients that send no user agent, such as Armeria's xDS module, this is the only
 * way Signalbox can tell them), and gets DRAINING endpoints as {@code drainingAs} says.
 *
 * @param nodeClusters the {@code node.cluster} values of the group
 * @param kind what the group's clients are; it wins over their user agent
 * @param drainingAs how a DRAINING endpoint is sent to the group; null for the kind's default
 *     ({@code UNHEALTHY} for a kind that treats DRAINING as healthy, else {@code DRAINING})
 */
public record ClientKindSettings(List<String> nodeClusters, ClientKind kind, DrainingAs drainingAs) {
  public ClientKindSettings {
    nodeClusters = nodeClusters == null ? List.of() : List.copyOf(nodeClusters);
  }
}
