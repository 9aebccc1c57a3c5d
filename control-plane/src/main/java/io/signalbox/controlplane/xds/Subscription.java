package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.service.discovery.v3.ResourceError;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.TypeResources;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one client stream asked for of one type, what it was sent and what it acknowledged. All
 * methods are called with the owning {@link XdsStream}'s lock held.
 *
 * <p>Three maps drive every decision: {@code sent} (what the client holds if it accepts everything
 * we sent), {@code held} (what it has ACKed), and {@code rejected} (name -> version it NACKed). A
 * resource is offered at its snapshot version unless this client rejected exactly that version, in
 * which case it keeps the version it holds: a NACKed version is never re-sent to that client
 * (java-control-plane's SimpleCache re-sends it in a tight loop). What the client asks for, the
 * names and whether it is a wildcard, is {@link SubscribedNames}; what it refused is
 * {@link StandingNacks}; the response it has not answered is a {@link PendingResponse}.
 *
 * <p>Over ~400 lines for a reason: {@link #next} and its fast path, {@link #ack}, {@link #nack} and
 * {@link #settledAt} read and move one shared state (sent, held, clean epoch, pending); split apart
 * they would each need the others' fields.
 */
final class Subscription {

  /**
   * A response to send: resources in name order, names removed (delta only), its version, and the
   * subscribed names it reports an error for instead of a resource (xRFC TP3's {@code resource_errors}).
   */
  record Outgoing(String version, Collection<XdsResource> resources, List<String> removed,
      List<ResourceError> errors) {}

  final XdsType type;
  private final boolean delta;

  private final SubscribedNames subscribed;
  // `sent` and `held` of the description above, stored once.
  private final SentAndHeld sh = new SentAndHeld();
  // Its refusals: versions NACKed, standing NACKs, re-sends owed after a NACK.
  private final StandingNacks nacked = new StandingNacks();
  private boolean everResponded;
  // The per-resource errors last reported or due (name -> the google.rpc code), so each is sent once
  // while it stands, not with every response: see ResourceErrors.
  private Map<String, ResourceError> erred = Map.of();
  // Delta only: holds a name it no longer asks for (told at reconnect, or kept when its wildcard
  // ended), so a change of any name of the type may concern it.
  private boolean holdsUnasked;
  // The snapshot epoch at which this subscription was known to have nothing left to send, and no
  // response in flight; -1 when not. While not dirty, the next snapshot only needs a look at what
  // changed since its parent (if its parent is this epoch), not at everything subscribed.
  private long cleanEpoch = -1;
  private boolean dirty = true;
  private int adjusted;
  PendingResponse pending;
  String lastNonce = "";
  // What the stream last reported of this type; reused while it still describes this subscription.
  TypeStatus reported;

  // Observability, read by ClientStatus snapshots under the stream lock.
  String sentVersion = "";
  long sentEpoch;
  Instant sentAt;
  String ackedVersion = "";
  long ackedEpoch;
  Instant ackedAt;
  long syncedEpoch;
  NackStatus lastNack;
  long nacks;
  long responses;
  long bytesSent;

  // For EDS to a client that gets DRAINING endpoints another way or a zone's view, the variants it is offered
  // instead of the snapshot's resources; null for every other subscription.
  private final AssignmentVariants variants;

  Subscription(XdsType type, boolean delta) {
    this(type, delta, null);
  }

  /** @param variants for EDS, the variants this client gets; null for the snapshot's own resources */
  Subscription(XdsType type, boolean delta, AssignmentVariants variants) {
    this.type = type;
    this.delta = delta;
    this.subscribed = new SubscribedNames(type);
    if (variants != null && type != XdsType.ENDPOINT) {
      throw new IllegalArgumentException("variants are of EDS resources, not " + type);
    }
    this.variants = variants;
  }

  boolean wildcard() {
    return subscribed.wildcard();
  }

  Set<String> names() {
    return subscribed.names();
  }

  /** Whether the client holds (ACKed) resource {@code name}. */
  boolean holdsName(String name) {
    return sh.holds(name);
  }

  /** Whether a resource the client holds names {@code child} among its references. */
  boolean holdsReferenceTo(String child) {
    return sh.anyHeldReferences(child);
  }

  /**
   * The group {@link ReleaseIndex} files this subscription in: the names it asks for, or every name
   * when it is a wildcard or holds a name it no longer asks for (a change of that name concerns it).
   */
  Set<String> indexedAs() {
    return subscribed.wildcard() || holdsUnasked ? ReleaseIndex.EVERY_NAME : subscribed.names();
  }

  /** Whether every newer epoch, whatever it changed, owes this client a re-send (after its NACK). */
  boolean resyncOwed() {
    return nacked.resyncOwed();
  }

  /**
   * Whether, flushed at {@code epoch}, this subscription was left holding it with nothing to send:
   * then a newer epoch that changes nothing it asks for or holds leaves it holding that one too.
   */
  boolean settledAt(long epoch) {
    return !dirty && pending == null && cleanEpoch == epoch && syncedEpoch == epoch && !nacked.resyncOwed()
        && !nacked.refusingAny();
  }

  /**
   * A newer epoch changed nothing this {@link #settledAt settled} subscription asks for or holds: it
   * holds that one, as if flushed with it (which would have found nothing to send).
   */
  void carryTo(long epoch) {
    cleanEpoch = epoch;
    syncedEpoch = epoch;
  }

  /** Something outside the snapshot changed what this client should get: recompute in full next time. */
  void touch() {
    dirty = true;
  }

  /** State-of-the-world: the request's names replace the subscription. */
  void subscribeSotw(List<String> requested) {
    subscribeSotw(requested, "", null);
  }

  /**
   * As {@link #subscribeSotw(List)}. On a stream's first request, a {@code version_info} naming
   * exactly the current version of the type says what the client holds: a client that moved from
   * another replica (the same version strings everywhere), or back to a restarted one, holds every
   * resource it asks for as the snapshot has it, so nothing is re-sent and nothing it holds is
   * taken away (the protocol's "version matches, no response needed"). Any other version — older,
   * adjusted around a NACK ({@code 42.1}), unknown — gets everything, as for a new client.
   */
  void subscribeSotw(List<String> requested, String versionInfo, Snapshot snapshot) {
    boolean first = !subscribed.initialized();
    subscribeNames(requested);
    if (first && snapshot != null && !versionInfo.isEmpty()) {
      TypeResources current = offered(snapshot);
      if (versionInfo.equals(Long.toString(current.versionEpoch())) && current.versionEpoch() > 0) {
        Iterable<String> held = subscribed.wildcard() ? current.byName().keySet() : subscribed.names();
        for (String name : held) {
          XdsResource r = current.get(name);
          if (r != null) {
            sh.send(name, r);
            sh.hold(name, r);
          }
        }
        everResponded = true;
        ackedVersion = versionInfo;
        ackedEpoch = current.versionEpoch();
      }
    }
  }

  private void subscribeNames(List<String> asked) {
    if (!subscribed.replace(asked)) {
      // Every ACK repeats the subscription; nothing to do unless it changed.
      return;
    }
    dirty = true;
    if (!subscribed.wildcard()) {
      // The client dropped these itself; forget them so a later re-subscription is answered.
      sh.retain(subscribed.names()::contains);
    }
  }

  /** Delta: subscriptions change incrementally; initial versions say what a reconnecting client has. */
  void subscribeDelta(List<String> subscribe, List<String> unsubscribe, Map<String, String> initialVersions,
      Snapshot snapshot) {
    if (!subscribe.isEmpty() || !unsubscribe.isEmpty() || !subscribed.initialized()) {
      dirty = true;
    }
    if (subscribed.startDelta(subscribe)) {
      TypeResources current = snapshot == null ? TypeResources.empty(type) : offered(snapshot);
      initialVersions.forEach((name, version) -> {
        XdsResource known = current.get(name);
        XdsResource claimed = known != null && known.version().equals(version)
            ? known
            : new XdsResource.Claimed(type, name, version);
        sh.send(name, claimed);
        sh.hold(name, claimed);
      });
      noteUnasked();
    }
    if (subscribe.isEmpty() && unsubscribe.isEmpty()) {
      // An ACK: the subscription stands.
      return;
    }
    subscribed.changeDelta(subscribe, unsubscribe, sh::forget);
    noteUnasked();
  }

  private void noteUnasked() {
    holdsUnasked = false;
    if (!subscribed.wildcard()) {
      for (String name : sh.heldNames()) {
        holdsUnasked |= !subscribed.names().contains(name);
      }
    }
  }

  /** The client accepted {@link #pending}. */
  void ack(Instant now) {
    PendingResponse p = pending;
    pending = null;
    if (type.fullStateInSotw() && !delta) {
      sh.holdExactly(p.resources);
    } else {
      p.resources.forEach(sh::hold);
      p.removed.forEach(sh::unhold);
    }
    ackedVersion = p.version;
    ackedEpoch = PendingResponse.versionEpoch(p.version);
    ackedAt = now;
    if (p.exact) {
      syncedEpoch = Math.max(syncedEpoch, p.epoch);
    }
    // The response was everything this client needed of that snapshot; now it holds it.
    cleanEpoch = p.epoch;
  }

  /**
   * The client rejected {@link #pending}. Every resource in it that the client did not already
   * hold at that version is remembered as rejected; what the client holds is what it had before.
   */
  void nack(String message, Instant now) {
    PendingResponse p = pending;
    pending = null;
    Map<String, String> culprits = nacked.rejectAll(p.resources.values(), sh::held);
    sh.sendHeld();
    nacked.resyncAfter(p.epoch, p.resources.keySet());
    lastNack = new NackStatus(PendingResponse.versionEpoch(p.version), p.epoch, message, now, culprits);
    dirty = true;
    nacks++;
  }

  /**
   * What this client should be sent now from {@code snapshot}, or null when it already has (or has
   * been sent) everything. Records the result as {@link #pending} and in {@code sent}.
   *
   * @param parentHeld the resources this client holds of the parent type (routes for clusters,
   *     clusters for endpoints, listeners for routes): a resource they still name is not taken away
   *     (make-before-break), even if the snapshot dropped it
   */
  Outgoing next(Snapshot snapshot, Subscription parentHeld, Instant now) {
    TypeResources current = offered(snapshot);
    if (!dirty && pending == null && cleanEpoch == snapshot.epoch() && !nacked.resyncOwed()) {
      // Already answered everything of this very snapshot (the usual case when an ACK arrives).
      return null;
    }
    if (!dirty && pending == null && cleanEpoch >= 0 && cleanEpoch == snapshot.parentEpoch()
        && current.changedSinceParent() != null && !nacked.resyncOwed()) {
      Set<String> changed = current.changedSinceParent();
      if (!anyRelevant(changed)) {
        return synced(snapshot);
      }
      if (!type.fullStateInSotw()) {
        return changedOnly(snapshot, changed, parentHeld, now);
      }
    }
    dirty = false;
    boolean wildcard = subscribed.wildcard();
    Set<String> desired = wildcard ? new TreeSet<>(current.byName().keySet()) : new TreeSet<>(subscribed.names());
    if (wildcard) {
      desired.addAll(sh.heldNames());
    }
    Map<String, XdsResource> target = new TreeMap<>();
    boolean adjustedOffer = false;
    nacked.forgetRefusing();
    Map<String, ResourceError> errors = Map.of();
    for (String name : desired) {
      XdsResource snap = current.get(name);
      XdsResource r = offer(snapshot, name, snap, parentHeld);
      adjustedOffer |= r != snap;
      if (r != null) {
        target.put(name, r);
      } else if (!wildcard) {
        errors = ResourceErrors.add(errors, name, snap == null
            ? ResourceErrors.notFound(type, name)
            : ResourceErrors.heldBack(type, name, snap.version(), lastNack));
      }
    }
    List<ResourceError> newErrors = ResourceErrors.newSince(erred, errors);
    erred = errors;

    Map<String, XdsResource> toSend = new LinkedHashMap<>();
    List<String> removed = new ArrayList<>();
    boolean resyncing = nacked.resyncingAt(snapshot.epoch());
    if (!delta && type.fullStateInSotw()) {
      if (everResponded && sameVersions(target, sh.sent()) && !resyncing && newErrors.isEmpty()) {
        return synced(snapshot);
      }
      toSend.putAll(target);
    } else {
      target.forEach((name, r) -> {
        XdsResource s = sh.sent(name);
        if (s == null || !s.version().equals(r.version()) || resyncing && nacked.resyncs(name)) {
          toSend.put(name, r);
        }
      });
      if (delta) {
        for (String name : new TreeSet<>(sh.sent().keySet())) {
          if (!target.containsKey(name)) {
            removed.add(name);
          }
        }
      }
      boolean firstWildcardAnswer = delta && wildcard && !everResponded;
      if (toSend.isEmpty() && removed.isEmpty() && !firstWildcardAnswer && newErrors.isEmpty()) {
        return synced(snapshot);
      }
    }

    if (resyncing) {
      nacked.resynced();
    }
    return respond(snapshot, current, toSend, removed, newErrors, adjustedOffer, now);
  }

  private Outgoing respond(Snapshot snapshot, TypeResources current, Map<String, XdsResource> toSend,
      List<String> removed, List<ResourceError> errors, boolean adjustedOffer, Instant now) {
    String version = delta ? snapshot.epochVersion() : current.version();
    if (adjustedOffer && !delta) {
      // The offer differs from the snapshot's for this client: never reuse a version string for
      // different content (grpc-java #12663).
      version = version + "." + (++adjusted);
    }
    if (!delta && type.fullStateInSotw()) {
      sh.unsendAll();
    }
    toSend.forEach(sh::send);
    removed.forEach(sh::unsend);
    everResponded = true;
    cleanEpoch = -1;
    pending = new PendingResponse(snapshot.epoch(), version, toSend, removed, now, !nacked.refusingAny());
    sentVersion = version;
    sentEpoch = PendingResponse.versionEpoch(version);
    sentAt = now;
    responses++;
    for (XdsResource r : toSend.values()) {
      bytesSent += r.serializedSize();
    }
    return new Outgoing(version, toSend.values(), removed, errors);
  }

  private Outgoing synced(Snapshot snapshot) {
    if (pending == null && sh.heldIsSent()) {
      if (!nacked.refusingAny()) {
        syncedEpoch = Math.max(syncedEpoch, snapshot.epoch());
      }
      cleanEpoch = snapshot.epoch();
    }
    return null;
  }

  /**
   * This client's standing NACKs of the type: name -> the version of the current snapshot that it
   * refused, for every name it is offered. Empty when it holds what the snapshot gives it.
   */
  Map<String, String> refusing() {
    return nacked.refusing();
  }

  /** Whether {@link #refusing()} would equal {@code other}, without copying. */
  boolean refusingEquals(Map<String, String> other) {
    return nacked.refusingEquals(other);
  }

  /** What this client is offered of {@code snapshot}: its resources of this type, or their variants. */
  private TypeResources offered(Snapshot snapshot) {
    return variants == null ? snapshot.resources(type) : variants.resources(snapshot);
  }

  /**
   * The version of {@code name} in the snapshot itself, of which {@code offered} is this client's
   * variant (or the very resource): standing NACKs are reported by it, because that is what a
   * rollback looks for in the epochs and restores.
   */
  private String snapshotVersion(Snapshot snapshot, String name, XdsResource offered) {
    if (variants == null) {
      return offered.version();
    }
    XdsResource own = snapshot.resources(type).get(name);
    return own == null ? offered.version() : own.version();
  }

  /** Whether this client asked for or holds {@code name}: a change of it may concern the client. */
  private boolean relevant(String name) {
    return subscribed.asksFor(name) || sh.holds(name);
  }

  private boolean anyRelevant(Set<String> changed) {
    for (String n : changed) {
      if (relevant(n)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The partial-type answer when this client held everything of the parent snapshot: only the
   * changed names can differ, so only they are looked at — a one-endpoint change costs each client
   * one lookup, not one per subscribed cluster.
   *
   * @param changed the snapshot's changed names, in name order ({@link TypeResources#changedSinceParent})
   */
  private Outgoing changedOnly(Snapshot snapshot, Set<String> changed, Subscription parentHeld, Instant now) {
    TypeResources current = offered(snapshot);
    // In name order, as the names are walked; a LinkedHashMap as on the full path, so the code
    // that sends it sees one collection class (a second one cost a C2 recompile, docs/benchmarks-history.md).
    Map<String, XdsResource> toSend = new LinkedHashMap<>();
    List<String> removed = new ArrayList<>();
    boolean adjustedOffer = false;
    for (String name : changed) {
      if (!relevant(name)) {
        continue;
      }
      boolean wanted = subscribed.asksFor(name);
      XdsResource snap = wanted ? current.get(name) : null;
      nacked.stopRefusing(name);
      XdsResource r = wanted ? offer(snapshot, name, snap, parentHeld) : null;
      adjustedOffer |= r != snap;
      XdsResource s = sh.sent(name);
      if (r != null && (s == null || !s.version().equals(r.version()))) {
        toSend.put(name, r);
      } else if (r == null && s != null && delta) {
        removed.add(name);
      }
      if (r != null && erred.containsKey(name)) {
        // It exists now, or is offered again: an error about it no longer stands.
        erred = ResourceErrors.without(erred, name);
      }
    }
    if (toSend.isEmpty() && removed.isEmpty()) {
      return synced(snapshot);
    }
    return respond(snapshot, current, toSend, removed, List.of(), adjustedOffer, now);
  }

  /**
   * What this client is offered of {@code name}, whose snapshot resource is {@code r} (null: none):
   * {@code r}, unless the client refused exactly that version (then what it holds, a standing NACK)
   * or the snapshot dropped a resource it holds that its parent type still names (make-before-break).
   */
  private XdsResource offer(Snapshot snapshot, String name, XdsResource r, Subscription parentHeld) {
    if (r != null && nacked.rejects(name, r.version())) {
      nacked.refuse(name, snapshotVersion(snapshot, name, r));
      return sh.held(name);
    }
    if (r == null) {
      XdsResource h = sh.held(name);
      return h != null && isReferenced(name, parentHeld) ? h : null;
    }
    return r;
  }

  /** @param parentHeld the client's subscription of the parent type; null if it has none */
  private static boolean isReferenced(String name, Subscription parentHeld) {
    return parentHeld != null && parentHeld.holdsReferenceTo(name);
  }

  private static boolean sameVersions(Map<String, XdsResource> a, Map<String, XdsResource> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (var e : a.entrySet()) {
      XdsResource other = b.get(e.getKey());
      if (other == null || !other.version().equals(e.getValue().version())) {
        return false;
      }
    }
    return true;
  }

  Set<String> rejectedNames() {
    return nacked.rejectedNames();
  }
}
