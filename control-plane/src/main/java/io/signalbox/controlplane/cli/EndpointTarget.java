package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Parameters;

/**
 * {@code CLUSTER ADDRESS:PORT}, the endpoint an operator command acts on, and its resource under
 * {@code /api/v1/clusters/}: the same two arguments, converted and escaped the same way, for
 * every command that names one endpoint.
 */
final class EndpointTarget {

  @Parameters(index = "0", paramLabel = "CLUSTER", description = "The cluster.")
  String cluster;

  @Parameters(index = "1", paramLabel = "ADDRESS:PORT", converter = Arguments.Endpoint.class,
      description = "The endpoint; IPv6 as [::1]:8080.")
  String endpoint;

  /** {@code /api/v1/clusters/CLUSTER/endpoints/ADDRESS:PORT/action}, each segment escaped. */
  String path(String action) {
    return "/api/v1/clusters/" + AdminClient.segment(cluster) + "/endpoints/" + AdminClient.segment(endpoint) + "/"
        + action;
  }

  /**
   * {@code cluster/address:port} as the server's {@code answer} names the endpoint: by its own
   * address, which a dual-stack endpoint named by another of its addresses does not match, so the
   * name given follows (issue 44: any address names the endpoint, intent is kept under its own).
   */
  String as(JsonNode answer) {
    String served = Json.text(answer, "endpoint");
    return served.isEmpty() || served.equalsIgnoreCase(endpoint) ? toString()
        : cluster + "/" + served + " (by its address " + endpoint + ")";
  }

  /** {@code cluster/address:port} as the server's answer names it, without the name given. */
  String subject(JsonNode answer) {
    String served = Json.text(answer, "endpoint");
    return cluster + "/" + (served.isEmpty() ? endpoint : served);
  }

  /** {@code cluster/address:port}, as messages name it. */
  @Override
  public String toString() {
    return cluster + "/" + endpoint;
  }
}
