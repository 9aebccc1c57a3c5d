package io.signalbox.model;

import java.time.Duration;

/**
 * A cluster's automatic shedding (docs/admission-design.md): shed when demand exceeds
 * {@code maxUtilization} times the capacity of its eligible endpoints, and lift the drop by at most
 * {@code step} percentage points per {@code window}. Null components take the defaults of
 * {@link ClusterSpec.Admission}, their one home.
 *
 * @param maxUtilization the share of eligible capacity demand may use before calls are dropped
 * @param step percentage points the drop may fall per window
 * @param window the least time between two steps down
 */
public record AdmissionSpec(Double maxUtilization, Integer step, Duration window) {}
