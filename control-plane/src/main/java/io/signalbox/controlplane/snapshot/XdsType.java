package io.signalbox.controlplane.snapshot;

import java.util.List;

/**
 * The xDS resource types Signalbox serves, declared in push order: CDS, EDS, LDS, RDS. A client gets
 * the clusters and endpoints a route may name before the route itself (make-before-break; see the
 * xDS protocol, "Eventual consistency considerations").
 */
public enum XdsType {
  CLUSTER("type.googleapis.com/envoy.config.cluster.v3.Cluster", true),
  ENDPOINT("type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment", false),
  LISTENER("type.googleapis.com/envoy.config.listener.v3.Listener", true),
  ROUTE("type.googleapis.com/envoy.config.route.v3.RouteConfiguration", false);

  /** In push order. */
  public static final List<XdsType> ORDERED = List.of(values());

  private final String typeUrl;
  private final boolean fullStateInSotw;

  XdsType(String typeUrl, boolean fullStateInSotw) {
    this.typeUrl = typeUrl;
    this.fullStateInSotw = fullStateInSotw;
  }

  public String typeUrl() {
    return typeUrl;
  }

  /**
   * Whether a state-of-the-world response must carry every resource the client asked for: true for
   * LDS and CDS, where an omitted resource means "deleted"; RDS and EDS responses may carry only
   * what changed (xDS protocol, "Grouping Resources into Responses").
   */
  public boolean fullStateInSotw() {
    return fullStateInSotw;
  }

  /** The type whose resources name resources of this type, if any (route -> cluster, ...). */
  public XdsType parent() {
    return switch (this) {
      case CLUSTER -> ROUTE;
      case ENDPOINT -> CLUSTER;
      case ROUTE -> LISTENER;
      case LISTENER -> null;
    };
  }

  /** The type whose resources this type's resources name (cluster -> endpoint, ...), if any. */
  public XdsType child() {
    return switch (this) {
      case LISTENER -> ROUTE;
      case ROUTE -> CLUSTER;
      case CLUSTER -> ENDPOINT;
      case ENDPOINT -> null;
    };
  }

  public static XdsType fromTypeUrl(String typeUrl) {
    // ORDERED, not values(): that copies its array on every call, and this runs on every request.
    for (XdsType t : ORDERED) {
      if (t.typeUrl.equals(typeUrl)) {
        return t;
      }
    }
    return null;
  }
}
