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
   * After a report: a key of a cluster the report named whose locality it left out has nothing in
   * flight (gRPC clients leave a locality out once it has no activity).
   */
  void omitted(java.util.function.IntPredicate clusterNamed, java.util.function.IntUnaryOperator clusterOf,
      int nowRelative) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] >= 0 && seen[i] != generation && clusterNamed.test(clusterOf.applyAsInt(keys[i]))) {
        if (inFlight[i] != 0) {
          inFlight[i] = 0;
          idleSince[i] = nowRelative;
        }
        seen[i] = generation;
      }
    }
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
    for (int c : clusters) {
      if (c == cluster) {
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
