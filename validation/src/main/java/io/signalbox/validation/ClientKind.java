package io.signalbox.validation;

import java.util.Locale;
import java.util.Optional;

/**
 * The xDS client implementations Signalbox knows the limits of (docs/traffic-policy.md, "Support by
 * client"). A client is told by its node's {@code user_agent_name}; a client that sends none
 * (Armeria's xDS module) is told by the node group it belongs to ({@code xds.clientKinds}).
 *
 * @param configName how the config file and every message name the kind
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

  private final String configName;
  private final String userAgent;

  ClientKind(String configName, String userAgent) {
    this.configName = configName;
    this.userAgent = userAgent;
  }

  public String configName() {
    return configName;
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

  /** The kind a config file names ({@code armeria}, {@code grpc-js}, ...); empty when none is. */
  public static Optional<ClientKind> ofConfigName(String name) {
    for (ClientKind kind : values()) {
      if (kind.configName.equals(name)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return configName;
  }
}
