package io.signalbox.controlplane.config;

/** Where the xDS (ADS) gRPC server listens. Absent values take the defaults below. */
public record XdsSettings(Integer port, String address) {
  public static final int DEFAULT_PORT = 18000;
  public static final String DEFAULT_ADDRESS = "0.0.0.0";

  public XdsSettings {
    port = port == null ? DEFAULT_PORT : port;
    address = address == null ? DEFAULT_ADDRESS : address;
  }

  public static XdsSettings defaults() {
    return new XdsSettings(null, null);
  }
}
