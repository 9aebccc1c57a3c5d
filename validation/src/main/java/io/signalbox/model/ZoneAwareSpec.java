package io.signalbox.model;

/**
 * Settings for {@link LocalityLb#ZONE_AWARE}; null components take Envoy's defaults.
 *
 * @param minClusterSize below this many endpoints, zone-aware routing is off (Envoy's default 6)
 * @param routingPercent share of requests considered for zone-aware routing (Envoy's default 100)
 */
public record ZoneAwareSpec(Long minClusterSize, Integer routingPercent) {}
