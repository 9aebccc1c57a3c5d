package io.signalbox.model;

/** Settings for {@link LbPolicy#LEAST_REQUEST}; null takes Envoy's default (2). */
public record LeastRequestSpec(Integer choiceCount) {}
