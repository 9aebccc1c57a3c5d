package io.signalbox.controlplane.admin;

/** Every API error body: a stable machine code and one human sentence. */
public record ApiError(String code, String message) {}
