package io.signalbox.model;

/** How Envoy spreads a priority's traffic over its localities (zones). */
public enum LocalityLb {
  /** By each locality's weight (Signalbox sends the sum of its endpoints' weights). */
  LOCALITY_WEIGHTED,
  /** Prefer the client's own zone while it has enough capacity ({@link ZoneAwareSpec}). */
  ZONE_AWARE
}
