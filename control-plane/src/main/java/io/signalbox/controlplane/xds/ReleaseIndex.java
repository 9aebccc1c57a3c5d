package io.signalbox.controlplane.xds;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Which streams a release concerns, and what every other stream holds without being visited: the
 * reason a one-name change costs the streams subscribed to that name, not the fleet.
 *
 * <p>Streams are indexed by what each subscription asks for, grouped by its name set: the sets are
 * interned ({@link SubscribedNames}), so a fleet asking for the same hundred clusters is one group,
 * and a release looks at each group once. A wildcard subscription (or one holding names it no
 * longer asks for) is concerned by every change of its type; a stream owed a re-send after a NACK
 * by every release. A stream no release since its last flush concerned holds, of every type it was
 * settled in then, the wave's newest {@link Settled} epoch: {@link XdsStream} carries it there when
 * it is next looked at (its status, or its next flush), never on the release itself.
 */
final class ReleaseIndex {

  /** Registered for a subscription concerned by every change of its type. */
  static final Set<String> EVERY_NAME = Collections.unmodifiableSet(new HashSet<>(Set.of("*")));

  /**
   * The newest release to a wave whose visits are done: every stream it concerned was flushed with
   * it. Every release to the wave since {@code chainStart} was incremental (its parent was the
   * previous release, its changes known per name), so a stream flushed at or after that epoch and
   * concerned by none since holds this epoch of every type it was settled in.
   *
   * @param releasedAt when the release began: what an unconcerned client converged at
   */
  record Settled(long epoch, Instant createdAt, Instant releasedAt, long chainStart) {}

  private final AtomicReferenceArray<Settled> settled;
  private final Map<XdsType, Map<Set<String>, Set<XdsStream>>> groups = new EnumMap<>(XdsType.class);
  private final Set<XdsStream> always = ConcurrentHashMap.newKeySet();
  private final AtomicLong visits = new AtomicLong();

  ReleaseIndex(int waves) {
    this.settled = new AtomicReferenceArray<>(waves);
    for (XdsType t : XdsType.values()) {
      groups.put(t, new ConcurrentHashMap<>());
    }
  }

  /** The wave's newest settled release, or null before the first. */
  Settled settled(int wave) {
    return settled.get(wave);
  }

  void settle(int wave, Settled s) {
    settled.set(wave, s);
  }

  /**
   * Moves {@code stream}'s subscription of {@code type} from group {@code was} to {@code now} (either
   * null: none). Called with the stream's lock held, after a flush that may have changed it.
   */
  void register(XdsStream stream, XdsType type, Set<String> was, Set<String> now) {
    Map<Set<String>, Set<XdsStream>> byNames = groups.get(type);
    if (was != null) {
      byNames.computeIfPresent(was, (k, members) -> {
        members.remove(stream);
        return members.isEmpty() ? null : members;
      });
    }
    if (now != null) {
      byNames.compute(now, (k, members) -> {
        Set<XdsStream> m = members == null ? ConcurrentHashMap.newKeySet() : members;
        m.add(stream);
        return m;
      });
    }
  }

  /** Whether every release should visit {@code stream} (it is owed a re-send after a NACK). */
  void always(XdsStream stream, boolean on) {
    if (on) {
      always.add(stream);
    } else {
      always.remove(stream);
    }
  }

  /**
   * The streams, of any wave, that incremental release {@code snapshot} concerns: those asking for
   * a name it changed, the wildcard ones of a type it changed, and those visited always.
   */
  Set<XdsStream> concerned(Snapshot snapshot) {
    Set<XdsStream> out = new HashSet<>(always);
    for (XdsType type : XdsType.values()) {
      Set<String> changed = snapshot.resources(type).changedSinceParent();
      if (changed.isEmpty()) {
        continue;
      }
      for (Map.Entry<Set<String>, Set<XdsStream>> g : groups.get(type).entrySet()) {
        if (g.getKey() == EVERY_NAME || intersects(g.getKey(), changed)) {
          out.addAll(g.getValue());
        }
      }
    }
    return out;
  }

  /** Every stream flushed by a release so far: what a test counts to show a release's cost. */
  long visits() {
    return visits.get();
  }

  void visited() {
    visits.incrementAndGet();
  }

  private static boolean intersects(Set<String> names, Set<String> changed) {
    Set<String> small = changed.size() <= names.size() ? changed : names;
    Set<String> large = small == changed ? names : changed;
    for (String n : small) {
      if (large.contains(n)) {
        return true;
      }
    }
    return false;
  }
}
