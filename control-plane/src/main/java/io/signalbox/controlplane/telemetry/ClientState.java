package io.signalbox.controlplane.telemetry;

/**
 * One reporting client's latest work per cluster × locality (× endpoint) key, in flat arrays:
 * the aggregation keeps one of these per client for as long as it reports, so its size is the
 * server's heap per client (issue 30: ≤ 10 KB). Keys are kept densely in the order they were first
 * reported (12 bytes each: key, in flight, idle since), found through a hash index of 2-byte
 * positions at most three quarters full (4-byte positions past 65,535 keys), and whether the
 * current report named a key is one bit, as is whether it named a cluster (by the aggregation's
 * cluster id): a client of 100 clusters × 3 localities holds about 5 KB. Owned by the aggregation
 * thread.
 */
final class ClientState {

  final String nodeId;
  long reportingSince;
  long lastReport;
  /** Bit i: the latest report named cluster id i (or a busy key of it was carried forward). */
  private long[] named = new long[2];
  int openStreams;
  /** Whether anything changed since the last write to the store. */
  boolean dirty;
  /**
   * {@link ClientRows#digest} of the row last written whole, 0 for none: a row that would be written
   * again the same has only its last report moved forward (issue 30's write cost).
   */
  long writtenDigest;

  /** Positions past this need 4-byte index entries. */
  static final int SMALL_INDEX_LIMIT = 65_535;

  // Dense, in the order keys were first reported: [0, size).
  private int[] keys = new int[8];
  private int[] inFlight = new int[8];
  /** Seconds since {@link LoadAggregator}'s base when the key last went from busy to idle. */
  private int[] idleSince = new int[8];
  private int size;
  /** Bit i: the current report named key i (or carried it forward). */
  private long[] seen = new long[1];
  /** Hash index: position + 1 per slot, 0 for empty; char while positions fit, else {@link #largeIndex}. */
  private char[] smallIndex = new char[16];
  private int[] largeIndex;

  ClientState(String nodeId, long now) {
    this.nodeId = nodeId;
    this.reportingSince = now;
  }

  /** A report begins: no key has been named by it yet. */
  void beginReport() {
    java.util.Arrays.fill(seen, 0L);
  }

  /** Records the key's in-flight count from the current report. */
  void work(int key, int count, int nowRelative) {
    int at = position(key);
    if (at < 0) {
      at = add(key, nowRelative);
    }
    if (count == 0 && inFlight[at] != 0) {
      idleSince[at] = nowRelative;
    }
    inFlight[at] = count;
    markSeen(at);
  }

  /** How many keys this client has reported (for tests). */
  int size() {
    return size;
  }

  private boolean seen(int at) {
    return (seen[at >>> 6] & (1L << at)) != 0;
  }

  private void markSeen(int at) {
    seen[at >>> 6] |= 1L << at;
  }

  /**
   * After a report naming the clusters {@code namedList} (the first {@code namedCount}): settles
   * every key the report left out, and sets the clusters it names ({@link #names}). A key with
   * nothing in flight before stays idle (gRPC clients leave a locality out once it has no activity). A key with calls in flight
   * before keeps its count, carried forward, and keeps its cluster among the named ones:
   * @grpc/grpc-js-xds leaves out a locality whose only activity is calls in progress, and a cluster
   * with no other activity altogether, so leaving them out says nothing about those calls, and
   * reading them as 0 would let a long stream look idle to a drain. grpc-java and Envoy report such
   * a locality (calls in progress count as activity there), so for them this never happens. A
   * carried count holds until the client names the locality again ({@link #work}), its stream ends
   * or it comes back after a silence ({@link #forget}).
   */
  void omitted(int[] namedList, int namedCount, java.util.function.IntUnaryOperator clusterOf, int nowRelative) {
    java.util.Arrays.fill(named, 0L);
    for (int n = 0; n < namedCount; n++) {
      name(namedList[n]);
    }
    for (int i = 0; i < size; i++) {
      if (seen(i)) {
        continue;
      }
      int cluster = clusterOf.applyAsInt(keys[i]);
      if (inFlight[i] != 0) {
        name(cluster);
        markSeen(i);
      } else if (names(cluster)) {
        markSeen(i);
      }
    }
  }

  private void name(int cluster) {
    if ((cluster >>> 6) >= named.length) {
      named = java.util.Arrays.copyOf(named, Math.max((cluster >>> 6) + 1, named.length * 2));
    }
    named[cluster >>> 6] |= 1L << cluster;
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
    for (int i = 0; i < size; i++) {
      if (inFlight[i] != 0) {
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
    for (int i = 0; i < size; i++) {
      if (clusterNamed.test(clusterOf.applyAsInt(keys[i]))) {
        visitor.visit(keys[i], inFlight[i], idleSince[i]);
      }
    }
  }

  @FunctionalInterface
  interface Visitor {
    void visit(int key, int inFlight, int idleSinceRelative);
  }

  /** Whether the latest report named the cluster (or carried a busy key of it forward). */
  boolean names(int cluster) {
    int word = cluster >>> 6;
    return word < named.length && (named[word] & (1L << cluster)) != 0;
  }

  /** Calls {@code action} for every cluster the latest report named, by increasing id. */
  void forEachCluster(java.util.function.IntConsumer action) {
    for (int word = 0; word < named.length; word++) {
      long bits = named[word];
      while (bits != 0) {
        action.accept(word * 64 + Long.numberOfTrailingZeros(bits));
        bits &= bits - 1;
      }
    }
  }

  /** The key's position, or -1. */
  private int position(int key) {
    int mask = indexLength() - 1;
    for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
      int entry = largeIndex != null ? largeIndex[i] : smallIndex[i];
      if (entry == 0) {
        return -1;
      }
      if (keys[entry - 1] == key) {
        return entry - 1;
      }
    }
  }

  private int add(int key, int nowRelative) {
    int at = size++;
    if (at == keys.length) {
      int n = keys.length + (keys.length >> 1);
      keys = java.util.Arrays.copyOf(keys, n);
      inFlight = java.util.Arrays.copyOf(inFlight, n);
      idleSince = java.util.Arrays.copyOf(idleSince, n);
    }
    if ((at >>> 6) == seen.length) {
      seen = java.util.Arrays.copyOf(seen, seen.length + 1);
    }
    keys[at] = key;
    inFlight[at] = 0;
    idleSince[at] = nowRelative;
    if (size * 4 > indexLength() * 3 || (largeIndex == null && size > SMALL_INDEX_LIMIT)) {
      reindex(size * 4 > indexLength() * 3 ? indexLength() * 2 : indexLength());
    } else {
      place(at);
    }
    return at;
  }

  private int indexLength() {
    return largeIndex != null ? largeIndex.length : smallIndex.length;
  }

  private void reindex(int length) {
    if (size > SMALL_INDEX_LIMIT) {
      largeIndex = new int[length];
      smallIndex = null;
    } else {
      smallIndex = new char[length];
    }
    for (int at = 0; at < size; at++) {
      place(at);
    }
  }

  private void place(int at) {
    int mask = indexLength() - 1;
    int i = hash(keys[at]) & mask;
    while ((largeIndex != null ? largeIndex[i] : smallIndex[i]) != 0) {
      i = (i + 1) & mask;
    }
    if (largeIndex != null) {
      largeIndex[i] = at + 1;
    } else {
      smallIndex[i] = (char) (at + 1);
    }
  }

  private static int hash(int key) {
    return (key * 0x9E3779B9) >>> 7;
  }
}
