package io.signalbox.controlplane.config;

import java.time.Duration;

/** The REST registry: instances register with a lease and must renew it within {@code leaseTtl}. */
public record RegistrySettings(Boolean enabled, Duration leaseTtl) {
  public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(30);

  public RegistrySettings {
    enabled = enabled == null ? Boolean.TRUE : enabled;
    leaseTtl = leaseTtl == null ? DEFAULT_LEASE_TTL : leaseTtl;
  }

  public static RegistrySettings defaults() {
    return new RegistrySettings(null, null);
  }
}
