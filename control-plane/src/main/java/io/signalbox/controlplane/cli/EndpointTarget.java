package io.signalbox.controlplane.cli;

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

  /** {@code cluster/address:port}, as messages name it. */
  @Override
  public String toString() {
    return cluster + "/" + endpoint;
  }
}
