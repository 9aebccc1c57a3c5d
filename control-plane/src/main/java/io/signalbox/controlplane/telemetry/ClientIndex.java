package io.signalbox.controlplane.telemetry;

import io.signalbox.store.LoadReportStore.ClientLoadRow;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One read of every client row, indexed by the clusters each client's latest report named: per
 * cluster, per node id, the client's freshest row. Built in one pass over the rows, so a reader
 * asking about every cluster costs O(rows), not O(clusters × rows).
 */
final class ClientIndex {

  private final Set<String> named;
  private final Map<String, Map<String, ClientLoadRow>> byCluster;

  private ClientIndex(Set<String> named, Map<String, Map<String, ClientLoadRow>> byCluster) {
    this.named = named;
    this.byCluster = byCluster;
  }

  /**
   * Parsed cluster lists by the text they were parsed from: a row rewritten with the same clusters
   * (every interval, as its client reports again) is not split again, and clients naming the same
   * clusters (most of a fleet) share one list. Shared by every read of one {@link StoredFleetLoad};
   * holds only the lists of its latest read, so a cluster list nobody names any more is let go.
   */
  static final class Parsed {
    private volatile Map<String, List<String>> byText = Map.of();

    private List<String> of(String text, Map<String, List<String>> next) {
      List<String> names = next.get(text);
      if (names == null) {
        names = byText.get(text);
        if (names == null) {
          names = text.lines().toList();
        }
        next.put(text, names);
      }
      return names;
    }
  }

  static ClientIndex of(List<ClientLoadRow> rows, Parsed parsed) {
    Map<String, List<String>> next = new HashMap<>();
    Set<String> named = new HashSet<>();
    Map<String, ClientLoadRow> byNode = new HashMap<>();
    for (ClientLoadRow row : rows) {
      named.addAll(parsed.of(row.clusters(), next));
      ClientLoadRow other = byNode.get(row.nodeId());
      if (other == null || row.lastReport().isAfter(other.lastReport())) {
        byNode.put(row.nodeId(), row);
      }
    }
    Map<String, Map<String, ClientLoadRow>> byCluster = new HashMap<>();
    for (ClientLoadRow row : byNode.values()) {
      for (String cluster : parsed.of(row.clusters(), next)) {
        byCluster.computeIfAbsent(cluster, k -> new TreeMap<>()).put(row.nodeId(), row);
      }
    }
    parsed.byText = next;
    return new ClientIndex(named, byCluster);
  }

  /** The clusters some row names, freshest or not. */
  Set<String> clusters() {
    return named;
  }

  /** Per node id (sorted), the freshest row of each client whose latest report named {@code cluster}. */
  Map<String, ClientLoadRow> freshest(String cluster) {
    return Collections.unmodifiableMap(byCluster.getOrDefault(cluster, Map.of()));
  }
}
