package io.signalbox.source;

import io.signalbox.model.EndpointSpec;
import io.signalbox.validation.Violation;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The full state one source knows, never a delta: the reconciler replaces this source's previous
 * state with it wholesale, so a missed update can never leave stale endpoints behind.
 *
 * @param sourceId stable id, e.g. {@code file:/etc/signalbox/endpoints.yaml}
 * @param generation increases with every state this source publishes
 * @param endpoints cluster name -> endpoints; when health is not FRESH, the last good content
 * @param problems why the source is not FRESH (parse errors with file, line and field)
 */
public record SourceState(
    String sourceId,
    long generation,
    SourceHealth health,
    Map<String, List<EndpointSpec>> endpoints,
    List<Violation> problems) {

  public SourceState {
    Map<String, List<EndpointSpec>> copy = new TreeMap<>();
    endpoints.forEach((cluster, list) -> copy.put(cluster, List.copyOf(list)));
    endpoints = java.util.Collections.unmodifiableMap(copy);
    problems = List.copyOf(problems);
  }
}
