package io.signalbox.model;

/** Settings for {@link LbPolicy#RING_HASH}; null components take Envoy's defaults. */
public record RingHashSpec(Long minimumRingSize, Long maximumRingSize) {}
