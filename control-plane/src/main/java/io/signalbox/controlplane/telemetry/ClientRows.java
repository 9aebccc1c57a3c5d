package io.signalbox.controlplane.telemetry;

import io.signalbox.store.LoadReportStore.ClientLoadRow;
import java.time.Instant;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * A client's row as the store keeps it: the clusters its latest report named, one per line, and
 * its work, one line per cluster × locality (× endpoint) key of those clusters:
 * {@code cluster TAB region TAB zone TAB subZone TAB endpoint TAB inFlight TAB idleSinceMillis}.
 * Text, so that both stores keep it as it is and a human can read it in {@code psql}.
 */
final class ClientRows {

  private ClientRows() {}

  /** One parsed work line. */
  record Work(String cluster, Locality locality, String endpoint, long inFlight, Instant idleSince) {}

  static ClientLoadRow row(ClientState c, String replica, long base, List<String> clusterNames,
      List<LoadAggregator.KeyName> keyNames, IntUnaryOperator clusterOf) {
    StringBuilder clusters = new StringBuilder();
    for (int cluster : c.clusters) {
      clusters.append(clusterNames.get(cluster)).append('\n');
    }
    StringBuilder work = new StringBuilder();
    c.forEach(c::names, clusterOf, (key, inFlight, idleSeconds) -> {
      LoadAggregator.KeyName name = keyNames.get(key);
      work.append(clusterNames.get(name.cluster())).append('\t')
          .append(name.locality().region()).append('\t')
          .append(name.locality().zone()).append('\t')
          .append(name.locality().subZone()).append('\t')
          .append(clean(name.endpoint())).append('\t')
          .append(inFlight).append('\t')
          // Never before the run of reports began: nothing is known about work before it.
          .append(Math.max(base + idleSeconds * 1000L, c.reportingSince)).append('\n');
    });
    return new ClientLoadRow(c.nodeId, replica, Instant.ofEpochMilli(c.lastReport),
        Instant.ofEpochMilli(c.reportingSince), clusters.toString(), work.toString());
  }

  /**
   * A 64-bit digest (FNV-1a) of what a row says besides its last report, never 0: equal digests
   * mean the stored row already says it. Kept per client instead of the row's text (~10 KB at 100
   * clusters × 3 localities), so skipping an unchanged write costs 8 bytes of heap per client.
   */
  static long digest(ClientLoadRow row) {
    long h = 0xcbf29ce484222325L;
    h = mix(h, row.replica());
    h = mix(h, Long.toString(row.reportingSince().toEpochMilli()));
    h = mix(h, row.clusters());
    h = mix(h, row.work());
    return h == 0 ? 1 : h;
  }

  private static long mix(long h, String s) {
    for (int i = 0; i < s.length(); i++) {
      h = (h ^ s.charAt(i)) * 0x100000001b3L;
    }
    // A separator, so that moving text from one part to the next changes the digest.
    return (h ^ 0xffff) * 0x100000001b3L;
  }

  private static String clean(String s) {
    return s.replace('\t', ' ').replace('\n', ' ');
  }

  static boolean names(ClientLoadRow row, String cluster) {
    for (String line : row.clusters().split("\n")) {
      if (line.equals(cluster)) {
        return true;
      }
    }
    return false;
  }

  static List<Work> work(ClientLoadRow row) {
    return row.work().lines().map(line -> {
      String[] f = line.split("\t", -1);
      long inFlight = Long.parseLong(f[5]);
      return new Work(f[0], new Locality(f[1], f[2], f[3]), f[4], inFlight,
          inFlight == 0 ? Instant.ofEpochMilli(Long.parseLong(f[6])) : null);
    }).toList();
  }
}
