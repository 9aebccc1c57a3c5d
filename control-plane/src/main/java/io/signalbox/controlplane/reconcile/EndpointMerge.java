package io.signalbox.controlplane.reconcile;

import io.signalbox.model.EndpointSpec;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Unions the endpoints of every source per cluster. The same address:port from two sources with
 * the same attributes is one endpoint; with different attributes it is a conflict, reported as a
 * violation rather than silently resolved.
 */
final class EndpointMerge {
  private EndpointMerge() {}

  record Result(Map<String, List<EndpointSpec>> endpoints, List<Violation> conflicts) {}

  static Result merge(Collection<SourceState> sources) {
    return merge(sources, List.of());
  }

  /**
   * @param precedence source kinds, strongest first (the part of a source id before ':', e.g.
   *     {@code file}); when both sources of a conflict are ranked, the stronger one's endpoint is
   *     kept and the conflict is a warning
   */
  static Result merge(Collection<SourceState> sources, List<String> precedence) {
    Map<String, Map<String, EndpointSpec>> byCluster = new TreeMap<>();
    List<Violation> conflicts = new ArrayList<>();
    sources.stream()
        .sorted(java.util.Comparator.comparing(SourceState::sourceId))
        .forEach(source -> source.endpoints().forEach((cluster, list) -> {
          Map<String, EndpointSpec> known = byCluster.computeIfAbsent(cluster, c -> new LinkedHashMap<>());
          for (EndpointSpec e : list) {
            EndpointSpec existing = known.putIfAbsent(e.key(), e);
            if (existing != null && existing != e && !sameAttributes(existing, e) && existing.origin() != null
                && !existing.origin().equals(e.origin())) {
              int rankExisting = rank(precedence, existing.origin());
              int rankNew = rank(precedence, e.origin());
              if (rankExisting >= 0 && rankNew >= 0 && rankExisting != rankNew) {
                EndpointSpec winner = rankNew < rankExisting ? e : existing;
                known.put(e.key(), winner);
                conflicts.add(Violation.warning("source.precedence", e.origin(),
                    "endpoints of cluster '" + cluster + "' (" + e.key() + ")",
                    "reported differently by " + existing.origin() + " and " + e.origin() + "; "
                        + winner.origin() + " wins by sources.precedence"));
                continue;
              }
              conflicts.add(Violation.error("source.conflict", e.origin(),
                  "endpoints of cluster '" + cluster + "' (" + e.key() + ")",
                  "also reported by " + existing.origin() + " with different attributes ("
                      + describe(existing) + " vs " + describe(e) + ")"));
            }
          }
        }));
    Map<String, List<EndpointSpec>> merged = new TreeMap<>();
    byCluster.forEach((cluster, eps) -> merged.put(cluster, List.copyOf(eps.values())));
    return new Result(merged, conflicts);
  }

  private static int rank(List<String> precedence, String origin) {
    int colon = origin.indexOf(':');
    return precedence.indexOf(colon < 0 ? origin : origin.substring(0, colon));
  }

  private static boolean sameAttributes(EndpointSpec a, EndpointSpec b) {
    return a.zone().equals(b.zone()) && a.weight() == b.weight() && a.priority() == b.priority()
        && a.state() == b.state();
  }

  private static String describe(EndpointSpec e) {
    return "zone " + (e.zone().isEmpty() ? "-" : e.zone()) + ", weight " + e.weight() + ", priority "
        + e.priority() + ", " + e.state();
  }
}
