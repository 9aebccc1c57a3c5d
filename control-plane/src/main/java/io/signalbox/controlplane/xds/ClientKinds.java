package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.signalbox.controlplane.config.ClientKindSettings;
import io.signalbox.validation.ClientKind;
import io.signalbox.validation.ClientSetting;
import io.signalbox.validation.ClientSupport;
import io.signalbox.validation.DrainingAs;
import java.util.List;
import java.util.Optional;

/**
 * What kind of client a node is, and how DRAINING endpoints are sent to it: from the node groups of
 * {@code xds.clientKinds} first (an operator's word, and the only word for a client that sends no
 * user agent), else from {@code node.user_agent_name}.
 *
 * <p>Groups are told by {@code node.cluster} alone, not by metadata: every replica's client list
 * records a client's node cluster and user agent, so any replica tells any client's kind the same.
 */
public record ClientKinds(List<ClientKindSettings> groups) {

  public static final ClientKinds NONE = new ClientKinds(List.of());

  public ClientKinds {
    groups = List.copyOf(groups);
  }

  /** The kind of a client with this user agent (name, optionally followed by its version) and node cluster. */
  public Optional<ClientKind> kindOf(String userAgent, String nodeCluster) {
    ClientKindSettings group = groupOf(nodeCluster);
    if (group != null && group.kind() != null) {
      return Optional.of(group.kind());
    }
    return ClientKind.ofUserAgent(userAgent);
  }

  public Optional<ClientKind> kindOf(Node node) {
    return kindOf(node.getUserAgentName(), node.getCluster());
  }

  /**
   * How DRAINING endpoints are sent to {@code node}: as its group says; else {@code UNHEALTHY} for a
   * kind that treats DRAINING as healthy ({@link ClientSupport}), so a drain stops new work there
   * too; else {@code DRAINING}.
   */
  public DrainingAs drainingAs(Node node) {
    ClientKindSettings group = groupOf(node.getCluster());
    if (group != null && group.drainingAs() != null) {
      return group.drainingAs();
    }
    return kindOf(node)
        .filter(k -> ClientSupport.of(k, ClientSetting.DRAINING).verdict() == ClientSupport.Verdict.IGNORED)
        .map(k -> DrainingAs.UNHEALTHY)
        .orElse(DrainingAs.DRAINING);
  }

  /** Whether {@code node} honours one drop category only, and so is sent the largest alone. */
  public boolean oneDropCategory(Node node) {
    return kindOf(node).map(ClientSupport::honoursOneDropCategory).orElse(false);
  }

  private ClientKindSettings groupOf(String nodeCluster) {
    for (ClientKindSettings g : groups) {
      if (g.nodeClusters().contains(nodeCluster)) {
        return g;
      }
    }
    return null;
  }
}
