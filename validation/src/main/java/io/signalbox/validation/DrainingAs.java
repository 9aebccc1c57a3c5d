package io.signalbox.validation;

/**
 * How a DRAINING endpoint is sent to a client: as {@code DRAINING} (the clients that honour it
 * send it no new work), or, for a client that treats DRAINING as healthy (Armeria), as {@code
 * UNHEALTHY} or not at all, so that a drain stops new work there too. The two differ under
 * Envoy-style panic thresholds (docs/traffic-policy.md, "Drains on clients that ignore DRAINING").
 */
public enum DrainingAs {
  DRAINING,
  UNHEALTHY,
  OMIT
}
