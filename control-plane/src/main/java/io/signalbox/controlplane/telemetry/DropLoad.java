package io.signalbox.controlplane.telemetry;

import java.time.Instant;
import java.util.Objects;

/**
 * Requests a cluster's clients dropped before sending them, per category, during one interval,
 * summed over clients and replicas. Drops are per cluster in LRS, not per locality.
 *
 * @param category the drop category ({@code drop_overloads}' category, e.g. {@code
 *     signalbox_overload}); {@link #UNCATEGORIZED} for drops a client counted without one (circuit
 *     breakers: {@code total_dropped_requests} minus the categorized ones)
 */
public record DropLoad(Instant intervalStart, String cluster, String category, long dropped) {

  public static final String UNCATEGORIZED = "";

  public DropLoad {
    Objects.requireNonNull(intervalStart, "intervalStart");
    Objects.requireNonNull(cluster, "cluster");
    category = Objects.requireNonNullElse(category, UNCATEGORIZED);
  }
}
