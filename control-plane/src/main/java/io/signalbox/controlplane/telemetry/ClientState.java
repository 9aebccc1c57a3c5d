package io.signalbox.controlplane.telemetry;

/**
 * One reporting client's latest work per cluster × locality (× endpoint) key, in flat arrays:
 * the aggregation keeps one of these per client for as long as it reports, so its size is the
 * server's heap per client (16 bytes per slot, open addressing at most three quarters full:
 * a client of 100 clusters × 3 localities holds 512 slots, 8 KB). Owned by the aggregation thread.
 */
final class ClientState {

  final String nodeId;
  long reportingSince;
  long lastReport;
  /** The report count, so a slot tells whether the latest report named it. */
  int generation;
  /** Cluster ids the latest report named. */
  int[] clusters = new int[0];
  int openStreams;
  /** Whether anything changed since the last write to the store. */
  boolean dirty;
  /**
   * {@link ClientRows#digest} of the row last written whole, 0 for none: a row that would be written
   * again the same has only its last report moved forward (issue 30's write cost).
   */
  long writtenDigest;

  private int[] keys = new int[16];
  private int[] inFlight = new int[16];
  /** Seconds since {@link LoadAggregator}'s base when the key last went from busy to idle. */
  private int[] idleSince = new int[16];
  private int[] seen = new int[16];
  private int size;

  ClientState(String nodeId, long now) {
    this.nodeId = nodeId;
    this.reportingSince = now;
    java.util.Arrays.fill(keys, -1);
  }

  /** Records the key's in-flight count from the current report ({@link #generation}). */
  void work(int key, int count, int nowRelative) {
    int slot = slot(key);
    if (keys[slot] != key) {
      keys[slot] = key;
      inFlight[slot] = 0;
      idleSince[slot] = nowRelative;
      size++;
      if (size * 4 > keys.length * 3) {
        grow();
        slot = slot(key);
      }
    }
    if (count == 0 && inFlight[slot] != 0) {
      idleSince[slot] = nowRelative;
    }
    inFlight[slot] = count;
    seen[slot] = generation;
  }

  /**
   * After a report naming the clusters {@code named} (the first {@code namedCount}): settles every
   * key the report left out, and sets {@link #clusters}. A key with nothing in flight before stays
   * idle (gRPC clients leave a locality out once it has no activity). A key with calls in flight
   * before keeps its count, carried forward, and keeps its cluster among the named ones:
   * @grpc/grpc-js-xds leaves out a locality whose only activity is calls in progress, and a cluster
   * with no other activity altogether, so leaving them out says nothing about those calls, and
   * reading them as 0 would let a long stream look idle to a drain. grpc-java and Envoy report such
   * a locality (calls in progress count as activity there), so for them this never happens. A
   * carried count holds until the client names the locality again ({@link #work}), its stream ends
   * or it comes back after a silence ({@link #forget}).
   */
  void omitted(int[] named, int namedCount, java.util.function.IntUnaryOperator clusterOf, int nowRelative) {
    clusters = named;
    int count = namedCount;
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] < 0 || seen[i] == generation) {
        continue;
      }
      int cluster = clusterOf.applyAsInt(keys[i]);
      boolean wasNamed = names(cluster, count);
      if (inFlight[i] != 0) {
        if (!wasNamed) {
          if (count == clusters.length) {
            clusters = java.util.Arrays.copyOf(clusters, Math.max(4, count * 2));
          }
          clusters[count++] = cluster;
        }
        seen[i] = generation;
      } else if (wasNamed) {
        seen[i] = generation;
      }
    }
    if (count != clusters.length) {
      clusters = java.util.Arrays.copyOf(clusters, count);
    }
  }

  /**
   * Drops every in-flight count, carried or reported: its stream ended, or it was silent long
   * enough to start a new run of reports, so nothing vouches for those calls any more (a restarted
   * client under the same node id has none of them, and would leave their locality out, which must
   * not carry the old count forward). Idle from {@code nowRelative}, after its latest report: a
   * drain reads that as not yet idle for an interval, and waits for a report or its deadline.
   *
   * @return whether any count was dropped
   */
  boolean forget(int nowRelative) {
    boolean any = false;
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] >= 0 && inFlight[i] != 0) {
        inFlight[i] = 0;
        idleSince[i] = nowRelative;
        any = true;
      }
    }
    return any;
  }

  /** Calls {@code visitor} for every key of a cluster the latest report named. */
  void forEach(java.util.function.IntPredicate clusterNamed, java.util.function.IntUnaryOperator clusterOf,
      Visitor visitor) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] >= 0 && clusterNamed.test(clusterOf.applyAsInt(keys[i]))) {
        visitor.visit(keys[i], inFlight[i], idleSince[i]);
      }
    }
  }

  @FunctionalInterface
  interface Visitor {
    void visit(int key, int inFlight, int idleSinceRelative);
  }

  boolean names(int cluster) {
    return names(cluster, clusters.length);
  }

  private boolean names(int cluster, int count) {
    for (int i = 0; i < count; i++) {
      if (clusters[i] == cluster) {
        return true;
      }
    }
    return false;
  }

  private int slot(int key) {
    int mask = keys.length - 1;
    int i = (key * 0x9E3779B9) >>> 7 & mask;
    while (keys[i] >= 0 && keys[i] != key) {
      i = (i + 1) & mask;
    }
    return i;
  }

  private void grow() {
    int[] oldKeys = keys;
    int[] oldInFlight = inFlight;
    int[] oldIdle = idleSince;
    int[] oldSeen = seen;
    keys = new int[oldKeys.length * 2];
    java.util.Arrays.fill(keys, -1);
    inFlight = new int[keys.length];
    idleSince = new int[keys.length];
    seen = new int[keys.length];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] >= 0) {
        int s = slot(oldKeys[i]);
        keys[s] = oldKeys[i];
        inFlight[s] = oldInFlight[i];
        idleSince[s] = oldIdle[i];
        seen[s] = oldSeen[i];
      }
    }
  }
}
