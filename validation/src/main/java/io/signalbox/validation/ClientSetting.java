package io.signalbox.validation;

/**
 * A setting whose support differs between xDS clients: one row of docs/traffic-policy.md's "Support
 * by client" table, and what a {@link ClientSupportRules} warning names.
 *
 * @param label how the table and the warnings name the setting
 */
public enum ClientSetting {
  LB_ROUND_ROBIN("lbPolicy ROUND_ROBIN"),
  LB_LEAST_REQUEST("lbPolicy LEAST_REQUEST"),
  LB_RING_HASH("lbPolicy RING_HASH"),
  LB_MAGLEV("lbPolicy MAGLEV"),
  LB_RANDOM("lbPolicy RANDOM"),
  LB_WEIGHTED_ROUND_ROBIN("lbPolicy WEIGHTED_ROUND_ROBIN"),
  /** Unequal endpoint weights under ROUND_ROBIN or LEAST_REQUEST (RING_HASH weighs its ring by them everywhere). */
  ENDPOINT_WEIGHTS("endpoint weights"),
  /** Unequal locality (zone) weights in a cluster without {@code localityLb: LOCALITY_WEIGHTED}. */
  LOCALITY_WEIGHTS("locality weights"),
  /** A route's {@code hashPolicy} on a header or the channel id (the others are warned per client in RoutePolicyRules). */
  HASH_POLICIES("hashPolicy"),
  RETRIES("retryPolicy"),
  /** Endpoints below priority 0 (failover). */
  PRIORITIES("endpoint priorities"),
  OUTLIER_DETECTION("outlierDetection"),
  /** EDS {@code drop_overloads}: shedding ({@code shed}, admission). */
  DROP_OVERLOADS("drop overloads"),
  DNS_ENDPOINTS("DNS-name endpoints"),
  /** An endpoint sent as DRAINING: no new work. */
  DRAINING("DRAINING endpoints"),
  /** An endpoint placed on the hash ring by its {@code envoy.lb} {@code hash_key} (gRFC A76), not its address. */
  ENDPOINT_HASH_KEYS("endpoint hash keys"),
  /** An endpoint with {@code additional_addresses} (gRFC A61): one backend on both address families. */
  ADDITIONAL_ADDRESSES("additional addresses"),
  /** A route's {@code autoHostRewrite}: the chosen endpoint's hostname as the authority (gRFC A81). */
  AUTO_HOST_REWRITE("autoHostRewrite"),
  /** {@code zonePreference: SAME_ZONE}: a client's own zone's endpoints at priority 0, the rest as failover. */
  ZONE_PREFERENCE("zonePreference");

  private final String label;

  ClientSetting(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /** The row of a cluster's {@code lbPolicy}. */
  public static ClientSetting of(io.signalbox.model.LbPolicy policy) {
    return switch (policy) {
      case ROUND_ROBIN -> LB_ROUND_ROBIN;
      case LEAST_REQUEST -> LB_LEAST_REQUEST;
      case RING_HASH -> LB_RING_HASH;
      case MAGLEV -> LB_MAGLEV;
      case RANDOM -> LB_RANDOM;
      case WEIGHTED_ROUND_ROBIN -> LB_WEIGHTED_ROUND_ROBIN;
    };
  }
}
