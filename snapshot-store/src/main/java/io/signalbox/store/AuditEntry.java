package io.signalbox.store;

import java.time.Instant;

/** Who did what, when and why. {@code target} names the object, e.g. {@code greeter/10.0.0.1:8080}. */
public record AuditEntry(Instant at, String actor, String action, String target, String reason) {}
