package io.signalbox.model;

/**
 * How much an endpoint can serve, in requests per second: the unit load reports count (calls
 * issued per interval), so demand and capacity compare without a conversion. Declared on an
 * endpoint, or on a cluster (and {@code clusterDefaults}) for its endpoints that declare none.
 *
 * @param rps null when not given; the validator reports a missing or out-of-range value
 */
public record CapacitySpec(Integer rps) {}
