package io.signalbox.controlplane.telemetry;

import io.signalbox.store.LoadReportStore.ClientLoadRow;
import java.time.Instant;
import java.util.List;
import java.util.function.IntFunction;
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

  /**
   * The row's text. {@code linePrefix} is a key's line up to its counts ({@link #linePrefix}), made
   * once per key, so a row costs two numbers per line.
   */
  static ClientLoadRow row(ClientState c, String replica, long base, List<String> clusterNames,
      IntFunction<String> linePrefix, IntUnaryOperator clusterOf) {
    StringBuilder clusters = new StringBuilder();
    c.forEachCluster(cluster -> clusters.append(clusterNames.get(cluster)).append('\n'));
    StringBuilder work = new StringBuilder();
    c.forEach(c::names, clusterOf, (key, inFlight, idleSeconds) -> work.append(linePrefix.apply(key))
        .append(inFlight).append('\t').append(idleSinceMillis(c, base, idleSeconds)).append('\n'));
    return new ClientLoadRow(c.nodeId, replica, Instant.ofEpochMilli(c.lastReport),
        Instant.ofEpochMilli(c.reportingSince), clusters.toString(), work.toString());
  }

  /** A work line up to its counts: {@code cluster TAB region TAB zone TAB subZone TAB endpoint TAB}. */
  static String linePrefix(String cluster, Locality locality, String endpoint) {
    return clean(cluster) + '\t' + clean(locality.region()) + '\t' + clean(locality.zone()) + '\t'
        + clean(locality.subZone()) + '\t' + clean(endpoint) + '\t';
  }

  /** Never before the run of reports began: nothing is known about work before it. */
  private static long idleSinceMillis(ClientState c, long base, int idleSeconds) {
    return Math.max(base + idleSeconds * 1000L, c.reportingSince);
  }

  /**
   * A 64-bit digest of what the client's row would say besides its last report, never 0: equal
   * digests mean the stored row already says it. Taken from the client's numbers, not from the
   * row's text, so an unchanged client costs no text at all; key and cluster ids are the
   * aggregation's, stable for its life (a new aggregation writes every row whole). Kept per client
   * instead of the row (~10 KB at 100 clusters × 3 localities): 8 bytes of heap per client.
   */
  static long digest(ClientState c, long base, IntUnaryOperator clusterOf) {
    long[] h = {mix(0xcbf29ce484222325L, c.reportingSince)};
    c.forEachCluster(cluster -> h[0] = mix(h[0], cluster));
    h[0] = mix(h[0], -1);
    c.forEach(c::names, clusterOf, (key, inFlight, idleSeconds) -> {
      h[0] = mix(h[0], key);
      h[0] = mix(h[0], inFlight);
      h[0] = mix(h[0], inFlight == 0 ? idleSinceMillis(c, base, idleSeconds) : 0);
    });
    return h[0] == 0 ? 1 : h[0];
  }

  /** One value into the digest: multiply and xor-shift, so every bit of it reaches every bit of the digest. */
  private static long mix(long h, long value) {
    h = (h ^ value) * 0x9E3779B97F4A7C15L;
    return h ^ (h >>> 29);
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
