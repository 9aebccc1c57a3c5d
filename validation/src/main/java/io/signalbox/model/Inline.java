package io.signalbox.model;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A record component whose own components are written at its parent's level, not under a key of
 * its own: {@link ClusterSpec} groups its settings into policy records in code while the file keeps
 * one flat mapping per cluster ({@code lbPolicy}, {@code drainTimeout}, ... side by side). The config
 * binder reads such a group's keys from the parent's mapping; an inlined component is never null.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Inline {}
