package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One ADS stream (one client connection) and everything Signalbox knows about it. Its state is
 * confined to the stream's serializing context ({@link Outbound}, grpc's
 * {@code SynchronizationContext}, as grpc-java's own xDS client keeps a stream's state): a request
 * ({@link #run}), a release ({@link #flush}) and the stream's end ({@link #unindex}) are tasks in
 * it, run one at a time and in order by whichever thread got there first (the connection's event
 * loop for a request, the writer for a release); a thread that finds another running the stream's
 * tasks leaves its task to it and goes on. There is no lock: the writer hands over an immutable
 * {@link Snapshot}, and other threads read what a task published ({@link #status}, {@link #holds},
 * the node and wave) without waiting for the stream.
 *
 * <p>A type is answered at most once per request: a request of a type opens it ({@link #watch}),
 * the response closes it, and the client's ACK or NACK (a new request) opens it again. That is the
 * protocol's flow control: a client is never sent a second response of a type before it answered
 * the first, so it cannot fall behind by more than one response per type.
 */
final class XdsStream {

  final long id;
  final boolean delta;
  final Instant connectedAt;
  // Written once, in the context, by the first request that names a node; read by any thread.
  private volatile Node node = Node.getDefaultInstance();
  private static final int TYPES = XdsType.values().length;
  private final Map<XdsType, Subscription> subscriptions = new EnumMap<>(XdsType.class);
  // The types that asked and are waiting for an answer, one bit per XdsType ordinal.
  private int open;
  // Nonces are unique within the stream (the protocol asks no more): a counter, not a UUID.
  private long nonces;
  private final Outbound out;
  private final StreamEvents events;
  private final Waves waves;
  private volatile int wave;
  private final java.util.function.Function<Node, AssignmentVariants> variantsFor;
  private AssignmentVariants variants;
  private long convergedEpoch;
  private java.time.Duration lastConvergence;
  // The last status() answer, built in the context and read by any thread: the rollout check and
  // the status recorder ask for every client several times a second, and most have not moved.
  // Stale once something it reports may have changed; even then, what did not change is reused.
  private volatile ClientStatus status;
  private boolean statusStale = true;
  // Counts every change of any stream's status, so the fleet's client list is rebuilt only then.
  private final java.util.concurrent.atomic.AtomicLong fleetChanges;
  private final ReleaseIndex index;
  // The epoch this stream was last flushed with, or carried to (see carry()); -1 before the first.
  private long visitedEpoch = -1;
  // Each type's group in the index (ReleaseIndex#register), by XdsType ordinal; null: none.
  private final java.util.Set<?>[] indexedAs = new java.util.Set<?>[TYPES];
  private boolean indexedAlways;
  private boolean unindexed;

  /**
   * @param variantsFor the EDS variants a node gets (its DRAINING endpoints sent another way, its
   *     zone's view), or null for the snapshot's own; asked once, for the stream's first node
   * @param index where this stream files its subscriptions, and reads what unconcerned releases settled
   * @param out where its responses are written, in order, outside the lock
   * @param events where each response sent is told to the history
   */
  XdsStream(long id, boolean delta, Instant connectedAt, Waves waves,
      java.util.concurrent.atomic.AtomicLong fleetChanges,
      java.util.function.Function<Node, AssignmentVariants> variantsFor, ReleaseIndex index, Outbound out,
      StreamEvents events) {
    this.out = out;
    this.events = events;
    this.index = index;
    this.variantsFor = variantsFor;
    this.fleetChanges = fleetChanges;
    this.id = id;
    this.delta = delta;
    this.connectedAt = connectedAt;
    this.waves = waves;
    this.wave = waves.count() - 1;
  }

  int wave() {
    return wave;
  }

  Node node() {
    return node;
  }

  /** Runs {@code task} in the stream's context: at once on this thread, unless another is running its tasks. */
  void run(Runnable task) {
    out.execute(task);
  }

  /** @return whether this was the stream's first node: its id, the fleet list's sort key, is now known */
  boolean nodeIfFirst(Node requestNode) {
    // Envoy sends the node only on the first request of a stream.
    if (node.getId().isEmpty() && requestNode != null && !requestNode.getId().isEmpty()) {
      invalidate();
      node = requestNode;
      wave = waves.waveOf(requestNode);
      variants = variantsFor.apply(requestNode);
      return true;
    }
    return false;
  }

  /**
   * Forgets the cached {@link #status()}: called by whoever changes a subscription (requests, ACKs,
   * NACKs, responses), in the context.
   */
  void changed() {
    invalidate();
  }

  private void invalidate() {
    statusStale = true;
    fleetChanges.incrementAndGet();
  }

  /** Marks the subscription of {@code type}, if the client has one, for a full recompute. */
  void touch(XdsType type) {
    Subscription s = subscriptions.get(type);
    if (s != null) {
      s.touch();
    }
  }

  Subscription subscription(XdsType type) {
    out.checkInContext();
    return subscriptions.computeIfAbsent(type,
        t -> new Subscription(t, delta, t == XdsType.ENDPOINT ? variants : null));
  }

  /**
   * The client asked for {@code type} (a first request, an ACK, a NACK, a new subscription): it is
   * answered from {@code snapshot} (null: nothing released yet) as soon as there is something new.
   * In the context.
   */
  void watch(XdsType type, Snapshot snapshot, Instant now) {
    open |= 1 << type.ordinal();
    if (snapshot != null) {
      flushInContext(snapshot, now);
    }
  }

  /**
   * A release concerns this stream: it is flushed with {@code snapshot} in its context, now or, if
   * another thread is running the stream's tasks, by that thread after them.
   */
  void flush(Snapshot snapshot, Instant now) {
    out.execute(() -> flushInContext(snapshot, now));
  }

  /**
   * Answers every open type that has something new, in push order (CDS, EDS, LDS, RDS), so a
   * client learns about a cluster before a route that names it. The responses are queued in the
   * context and written when the task that computed them ends.
   */
  void flushInContext(Snapshot snapshot, Instant now) {
    out.checkInContext();
    // Carried only to a release older than this one: a flush left to another thread may run after
    // the release it belongs to settled, and carrying to that epoch first would mark subscriptions
    // as holding a change this very flush has yet to send.
    carry(snapshot.epoch());
    invalidate();
    try {
      flushTypes(snapshot, now);
    } finally {
      noteConvergence(snapshot, now);
      visitedEpoch = Math.max(visitedEpoch, snapshot.epoch());
      reindex();
    }
  }

  /**
   * Brings this stream to its wave's newest settled release if no release since its last flush
   * concerned it: each subscription settled at that flush holds the newer epoch too, and the client
   * converged on it when it was released (what a flush then would have recorded, found nothing to
   * send, and cost every unconcerned stream of the fleet). In the context, before anything reads
   * or changes the subscriptions; only to a settled epoch below {@code below}.
   */
  private void carry(long below) {
    ReleaseIndex.Settled to = index.settled(wave);
    if (to == null || to.epoch() >= below || to.epoch() <= visitedEpoch || visitedEpoch < to.chainStart() || subscriptions.isEmpty()) {
      return;
    }
    boolean all = true;
    for (Subscription s : subscriptions.values()) {
      if (s.settledAt(visitedEpoch) && watching(s.type)) {
        s.carryTo(to.epoch());
      } else {
        all = false;
      }
    }
    visitedEpoch = to.epoch();
    // Not invalidate(): the release that settled `to` already counted this as a fleet change, and a
    // status walk carrying every stream must not make the walk it is part of stale.
    statusStale = true;
    if (all && to.epoch() > convergedEpoch) {
      convergedEpoch = to.epoch();
      lastConvergence = java.time.Duration.between(to.createdAt(), to.releasedAt());
    }
  }

  /** Whether {@code type} asked and waits for an answer: a flush answers only those. */
  private boolean watching(XdsType type) {
    return (open & (1 << type.ordinal())) != 0;
  }

  /** Files each subscription where the index will find it; costs nothing while none changed. */
  private void reindex() {
    if (unindexed) {
      return;
    }
    boolean always = false;
    for (Subscription s : subscriptions.values()) {
      java.util.Set<String> now = s.indexedAs();
      int i = s.type.ordinal();
      if (indexedAs[i] != now) {
        @SuppressWarnings("unchecked")
        java.util.Set<String> was = (java.util.Set<String>) indexedAs[i];
        index.register(this, s.type, was, now);
        indexedAs[i] = now;
      }
      always |= s.resyncOwed();
    }
    if (always != indexedAlways) {
      index.always(this, always);
      indexedAlways = always;
    }
  }

  /** The stream closed: the index forgets it. In the context. */
  void unindex() {
    for (XdsType t : XdsType.values()) {
      @SuppressWarnings("unchecked")
      java.util.Set<String> was = (java.util.Set<String>) indexedAs[t.ordinal()];
      if (was != null) {
        index.register(this, t, was, null);
        indexedAs[t.ordinal()] = null;
      }
    }
    index.always(this, false);
    indexedAlways = false;
    unindexed = true;
  }

  /**
   * Once every type this client holds is at {@code snapshot}'s epoch, records how long it took
   * from the epoch's creation: the client's convergence time for that epoch.
   */
  private void noteConvergence(Snapshot snapshot, Instant now) {
    // Runs on every ACK and every publish of every stream: a loop, not a stream pipeline.
    long epoch = Long.MAX_VALUE;
    for (Subscription s : subscriptions.values()) {
      epoch = Math.min(epoch, s.syncedEpoch);
    }
    if (subscriptions.isEmpty()) {
      epoch = 0;
    }
    if (epoch > convergedEpoch && epoch == snapshot.epoch()) {
      convergedEpoch = epoch;
      lastConvergence = java.time.Duration.between(snapshot.createdAt(), now);
    }
  }

  private void flushTypes(Snapshot snapshot, Instant now) {
    for (XdsType type : XdsType.ORDERED) {
      Subscription sub = subscriptions.get(type);
      if (sub == null || !watching(type)) {
        continue;
      }
      Subscription.Outgoing outgoing = sub.next(snapshot, parentHeld(type), now);
      if (outgoing != null) {
        open &= ~(1 << type.ordinal());
        respond(sub, outgoing);
        events.sent(this, node.getId(), type, snapshot.epoch(), outgoing.version(), now);
      }
    }
  }

  /** Queues {@code outgoing} under this stream's next nonce; written once the lock is released. */
  private void respond(Subscription sub, Subscription.Outgoing outgoing) {
    String nonce = Long.toString(++nonces);
    sub.lastNonce = nonce;
    if (sub.pending != null) {
      sub.pending.nonce = nonce;
    }
    out.later(sub.type, delta, outgoing, nonce);
  }

  /** The client's subscription of {@code type}'s parent type, whose held resources may still name ours. */
  private Subscription parentHeld(XdsType type) {
    XdsType parent = type.parent();
    return parent == null ? null : subscriptions.get(parent);
  }

  /** How many names this stream subscribes to by name, of {@code type}. In the context. */
  int subscribedCount(XdsType type) {
    Subscription s = subscriptions.get(type);
    return s == null ? 0 : s.names().size();
  }

  /**
   * Whether this client subscribes to, or holds, resource {@code name} of {@code type}; asked from
   * any thread. Answered in the context when no other thread is running the stream's tasks; while
   * one is, the answer is yes: a drain then also waits for this client's ACK, never ends without it.
   */
  boolean holds(XdsType type, String name) {
    ContextRead read = new ContextRead();
    boolean[] holds = {true};
    out.execute(() -> {
      Subscription s = subscriptions.get(type);
      holds[0] = s != null && (s.wildcard() || s.names().contains(name) || s.holdsName(name));
      read.done();
    });
    return read.deferred() || holds[0];
  }

  /**
   * What Signalbox knows of this client, from any thread: brought up to date in the context at
   * once when no other thread is running the stream's tasks. While one is, this is the last status
   * built, and the up-to-date one is built after that thread's tasks; if it differs, the fleet's
   * change count moves, so a list built from this answer is rebuilt at its next read.
   */
  ClientStatus status() {
    ContextRead read = new ContextRead();
    out.execute(() -> {
      ClientStatus was = status;
      refreshStatus();
      if (read.doneLate() && status != was) {
        fleetChanges.incrementAndGet();
      }
    });
    read.deferred();
    ClientStatus now = status;
    if (now == null) {
      // Nothing built yet and another thread busy with the stream: who it is, holding nothing yet.
      now = ClientStatus.of(id, delta, connectedAt, node, waves.name(wave), null, Map.of(), null);
    }
    return now;
  }

  private void refreshStatus() {
    carry(Long.MAX_VALUE);
    if (!statusStale) {
      return;
    }
    statusStale = false;
    boolean same = status != null && status.types().size() == subscriptions.size();
    for (Subscription s : subscriptions.values()) {
      TypeStatus was = s.reported;
      s.reported = TypeStatus.of(s, was);
      same &= s.reported == was;
    }
    if (same && status.wave().equals(waves.name(wave)) && status.lastConvergence() == lastConvergence
        && status.nodeId().equals(node.getId())) {
      // Flushed or asked again with nothing new to report (an ACK of an unchanged type, a publish
      // this client needs nothing of): the same instance, so consumers can tell nothing moved.
      return;
    }
    status = ClientStatus.of(id, delta, connectedAt, node, waves.name(wave), lastConvergence, reported(), status);
  }

  /**
   * Each subscription's last reported status by type URL, immutable, built by arity (a client has
   * at most one subscription per {@link XdsType}). Not a map copied with {@code Map.copyOf}: that
   * method's type profile is shared with every caller in the process; inlined here, it speculated on
   * the one map class it had seen, trapped when another came, and this method's first C2 compile
   * was thrown away within a second and compiled again (134 then 391 ms of C2 in one run;
   * docs/benchmarks-history.md, issue 17, eighth part).
   */
  private Map<String, TypeStatus> reported() {
    String[] urls = new String[TYPES];
    TypeStatus[] reported = new TypeStatus[TYPES];
    int n = 0;
    for (Subscription s : subscriptions.values()) {
      urls[n] = s.type.typeUrl();
      reported[n++] = s.reported;
    }
    return switch (n) {
      case 0 -> Map.of();
      case 1 -> Map.of(urls[0], reported[0]);
      case 2 -> Map.of(urls[0], reported[0], urls[1], reported[1]);
      case 3 -> Map.of(urls[0], reported[0], urls[1], reported[1], urls[2], reported[2]);
      case 4 -> Map.of(urls[0], reported[0], urls[1], reported[1], urls[2], reported[2], urls[3], reported[3]);
      default -> {
        Map<String, TypeStatus> all = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
          all.put(urls[i], reported[i]);
        }
        yield Map.copyOf(all);
      }
    };
  }
}
