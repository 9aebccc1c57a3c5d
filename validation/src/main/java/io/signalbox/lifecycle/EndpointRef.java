package io.signalbox.lifecycle;

import io.signalbox.model.EndpointSpec;
import java.util.List;
import java.util.Optional;

/** One endpoint of one cluster: {@code cluster/address:port}. */
public record EndpointRef(String cluster, String address, int port) {

  public static EndpointRef of(String cluster, EndpointSpec e) {
    return new EndpointRef(cluster, e.address(), e.port());
  }

  /** {@code address:port}, IPv6 in brackets. */
  public String key() {
    return (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
  }

  /**
   * The endpoint of {@code endpoints} (one cluster's) that answers on this ref's address and port,
   * its own or one of its additional addresses, named by its own: the key operator intent (drains,
   * ejections, weights) is stored under, so a dual-stack endpoint is one endpoint whichever of its
   * addresses an operator names (issue 44). Empty when none does.
   */
  public Optional<EndpointRef> resolve(List<EndpointSpec> endpoints) {
    String wanted = key();
    for (EndpointSpec e : endpoints) {
      if (e.address() == null) {
        continue;
      }
      for (String k : e.keys()) {
        // IPv6 hex digits are case-insensitive: [FD00::1] and [fd00::1] are one address.
        if (k.equalsIgnoreCase(wanted)) {
          return Optional.of(of(cluster, e));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Parses {@code 10.0.0.1:8080}, {@code [::1]:8080} or {@code host:8080}; null when it is not of
   * that shape (the caller says why to its user).
   */
  public static EndpointRef parse(String cluster, String addressPort) {
    if (addressPort == null) {
      return null;
    }
    int colon = addressPort.lastIndexOf(':');
    if (colon <= 0 || colon == addressPort.length() - 1) {
      return null;
    }
    String address = addressPort.substring(0, colon);
    if (address.startsWith("[") && address.endsWith("]")) {
      address = address.substring(1, address.length() - 1);
    } else if (address.indexOf(':') >= 0) {
      return null;
    }
    try {
      int port = Integer.parseInt(addressPort.substring(colon + 1));
      return port < 1 || port > 65535 || address.isEmpty() ? null : new EndpointRef(cluster, address, port);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return cluster + "/" + key();
  }
}
