package io.signalbox.model;

/**
 * Settings for {@link LbPolicy#RING_HASH}; null components take Envoy's defaults.
 *
 * @param hashKeySource where an endpoint's place on the ring comes from; null: its address
 */
public record RingHashSpec(Long minimumRingSize, Long maximumRingSize, HashKeySource hashKeySource) {

  /** Placing endpoints by address: the shape before issue 44. */
  public RingHashSpec(Long minimumRingSize, Long maximumRingSize) {
    this(minimumRingSize, maximumRingSize, null);
  }
}
