package io.signalbox.model;

/** Settings for {@link LbPolicy#MAGLEV}; {@code tableSize} must be prime (Envoy's default 65537). */
public record MaglevSpec(Long tableSize) {}
