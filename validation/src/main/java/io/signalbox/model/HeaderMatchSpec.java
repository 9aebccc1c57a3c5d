package io.signalbox.model;

/** Matches a request header by exactly one of: {@code exact} value, {@code prefix}, or {@code present}. */
public record HeaderMatchSpec(String name, String exact, String prefix, Boolean present) {}
