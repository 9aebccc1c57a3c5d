package io.signalbox.validation;

import java.util.Locale;
import java.util.Optional;

/**
 * The xDS client implementations Signalbox knows the limits of (docs/traffic-policy.md, "Support by
 * client"). A client is told by its node's {@code user_agent_name}; a client that sends none
 * (Armeria's xDS module) is told by the node group it belongs to ({@code xds.clientKinds}).
 *
 * @param label how every message and docs/traffic-policy.md name the kind (the config file
 *     spells the constant: {@code kind: ARMERIA})
 * @param userAgent the {@code node.user_agent_name} the implementation sends, or null when it sends none
 */
public enum ClientKind {
  /** grpc-java's {@code grpc-xds} ({@code XdsNameResolver}'s bootstrap sets "gRPC Java"). */
  GRPC_JAVA("grpc-java", "gRPC Java"),
  /** {@code @grpc/grpc-js-xds} ({@code xds-client.ts} sets "gRPC Node Pure JS"). */
  GRPC_JS("grpc-js", "gRPC Node Pure JS"),
  /** Armeria's xDS module: its node carries no user agent. */
  ARMERIA("armeria", null),
  /** Envoy sets "envoy" ({@code Envoy::Server::LocalInfo}). */
  ENVOY("envoy", "envoy");

  private final String label;
  private final String userAgent;

  ClientKind(String label, String userAgent) {
    this.label = label;
    this.userAgent = userAgent;
  }

  public String label() {
    return label;
  }

  /**
   * The kind whose user agent {@code userAgentName} is. Matched as a prefix, case-insensitively, so
   * a user agent reported with its version ({@code "gRPC Java 1.85.1"}) is told too; empty when
   * the name is absent or unknown.
   */
  public static Optional<ClientKind> ofUserAgent(String userAgentName) {
    if (userAgentName == null || userAgentName.isBlank()) {
      return Optional.empty();
    }
    String name = userAgentName.strip().toLowerCase(Locale.ROOT);
    for (ClientKind kind : values()) {
      if (kind.userAgent == null) {
        continue;
      }
      String known = kind.userAgent.toLowerCase(Locale.ROOT);
      if (name.equals(known) || name.startsWith(known + " ") || name.startsWith(known + "/")) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }

  /** The kind of a label ({@code armeria}, {@code grpc-js}, ...); empty when none has it. */
  public static Optional<ClientKind> ofLabel(String name) {
    for (ClientKind kind : values()) {
      if (kind.label.equals(name)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }
}
