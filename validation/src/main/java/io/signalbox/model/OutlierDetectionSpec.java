package io.signalbox.model;

import java.time.Duration;

/** Envoy outlier detection; null components take Envoy's defaults. */
public record OutlierDetectionSpec(
    Integer consecutive5xx, Duration interval, Duration baseEjectionTime, Integer enforcingConsecutive5xx) {}
