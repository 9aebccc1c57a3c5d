package io.signalbox.controlplane.xds;

import io.signalbox.controlplane.snapshot.XdsResource;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one subscription's client refused, and what follows from it: the versions it NACKed per
 * name (never offered again), the names it refuses now (its standing NACKs, which keep it from
 * holding an epoch whatever it ACKs), and the names a newer epoch re-sends after a NACK. Split from
 * {@link Subscription}, whose offer rules ask it per name; called with the owning stream's lock held.
 */
final class StandingNacks {

  // Name -> the version of it this client last NACKed.
  private final Map<String, String> rejected = new HashMap<>();
  // Of the names offered from the current snapshot, those whose snapshot version this client
  // rejected (name -> that version): its standing NACKs. While one stands, the client is offered
  // what it holds instead, and it does not hold the snapshot's epoch, whatever it ACKs.
  private final Map<String, String> refusing = new TreeMap<>();
  // Names of a NACKed response, and the snapshot it came from: the next newer epoch re-sends them
  // even if the client already holds that version, so the client ACKs the new epoch and its
  // acked version says where it is (a rollback restores what it still holds).
  private final Set<String> resync = new HashSet<>();
  private long resyncAfterEpoch;

  /** Whether the client NACKed exactly version {@code version} of {@code name}. */
  boolean rejects(String name, String version) {
    return version.equals(rejected.get(name));
  }

  /** The client NACKed these versions. */
  void rejected(String name, String version) {
    rejected.put(name, version);
  }

  /** A NACKed response of snapshot {@code epoch} named these: the next newer epoch re-sends them. */
  void resyncAfter(long epoch, Collection<String> names) {
    resync.addAll(names);
    resyncAfterEpoch = epoch;
  }

  /** Whether a re-send after a NACK is still owed. */
  boolean resyncOwed() {
    return !resync.isEmpty();
  }

  /** Whether snapshot {@code epoch} is the one that pays the re-send owed. */
  boolean resyncingAt(long epoch) {
    return !resync.isEmpty() && epoch > resyncAfterEpoch;
  }

  boolean resyncs(String name) {
    return resync.contains(name);
  }

  void resynced() {
    resync.clear();
  }

  /** The client is offered what it holds of {@code name}, because it refuses snapshot version {@code version}. */
  void refuse(String name, String version) {
    refusing.put(name, version);
  }

  void stopRefusing(String name) {
    refusing.remove(name);
  }

  /** A full recompute of the offer starts: it finds every standing NACK again. */
  void forgetRefusing() {
    refusing.clear();
  }

  boolean refusingAny() {
    return !refusing.isEmpty();
  }

  /** Name -> the snapshot version refused, for every name offered; empty when none. */
  Map<String, String> refusing() {
    return refusing.isEmpty() ? Map.of() : Map.copyOf(refusing);
  }

  boolean refusingEquals(Map<String, String> other) {
    return refusing.equals(other);
  }

  Set<String> rejectedNames() {
    return new HashSet<>(rejected.keySet());
  }

  /** The resources of {@code resources} the client did not hold at that version become rejected. */
  Map<String, String> rejectAll(Collection<XdsResource> resources, java.util.function.Function<String, XdsResource> held) {
    Map<String, String> culprits = new TreeMap<>();
    for (XdsResource r : resources) {
      XdsResource h = held.apply(r.name());
      if (h == null || !h.version().equals(r.version())) {
        rejected.put(r.name(), r.version());
        culprits.put(r.name(), r.version());
      }
    }
    return culprits;
  }
}
