package io.signalbox.model;

/**
 * A listener: either a gRPC proxyless "API listener" ({@code apiListener: true}, no address or
 * port) or an Envoy socket listener on {@code address:port}. Both route through {@code routeConfig}.
 *
 * @param port null for API listeners
 */
public record ListenerSpec(String name, boolean apiListener, String address, Integer port, String routeConfig) {}
