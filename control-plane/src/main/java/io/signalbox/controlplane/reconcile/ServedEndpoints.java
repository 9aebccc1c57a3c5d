package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.lifecycle.EjectionHold;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.Lifecycle;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import io.signalbox.store.StoredIntent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The endpoints as they should be served, from what the sources report: operator overrides, then
 * endpoints that left their sources and are still draining (gone only once every client holds the
 * draining epoch and the drain timeout passed), then the freeze of ejections, then the guards that
 * hold a cluster's update back.
 * On the writer's thread; the held updates are also read by the API.
 */
final class ServedEndpoints {

  private final Departures departures = new Departures();
  private final HeldUpdates heldUpdates = new HeldUpdates(Duration.ofMinutes(5));
  // Written by the writer, read by the API: the ejections the last build held back.
  private volatile Map<EndpointRef, String> heldEjections = Map.of();

  /**
   * @param endpoints per cluster, as they should be served
   * @param causes why each endpoint is in the state it is (for the transition audit)
   * @param nextChange when this changes by itself (a drain or an ejection ends), or null
   * @param spentConfirmations confirmed clusters that hold nothing any more
   */
  record Result(Map<String, List<EndpointSpec>> endpoints, Map<EndpointRef, String> causes, Instant nextChange,
      Set<String> spentConfirmations) {}

  /**
   * The endpoints before the guards: what the sources, the operator's overrides, the departures and
   * the freeze of ejections make of them. The writer validates these before it asks the guards
   * ({@link #guard}), so that invalid input is refused, never held.
   *
   * @param nextChange when this changes by itself (a drain or an ejection ends), or null
   */
  record Unguarded(Map<String, List<EndpointSpec>> endpoints, Map<EndpointRef, String> causes, Instant nextChange) {}

  /**
   * {@link #lifecycle} then {@link #guard}.
   *
   * @param published what clients are served now (null before the first epoch)
   * @param drainAcknowledged whether every client holding the endpoint's cluster holds an epoch in
   *     which it was DRAINING (invariant 2)
   */
  Result apply(Map<String, List<EndpointSpec>> fromSources, Intent intent, Snapshot published, ClusterSpecs specs,
      Predicate<EndpointRef> drainAcknowledged, Instant now) {
    return guard(lifecycle(fromSources, intent, published, specs, drainAcknowledged, now), intent, published, specs,
        now);
  }

  /** The endpoints as the sources and the operator intent make them, before the guards. */
  Unguarded lifecycle(Map<String, List<EndpointSpec>> fromSources, Intent intent, Snapshot published,
      ClusterSpecs specs, Predicate<EndpointRef> drainAcknowledged, Instant now) {
    List<OperatorOverride> overrides = intent.overrides();
    Lifecycle.Result current = Lifecycle.apply(fromSources, overrides, List.of(), now);
    List<Lifecycle.Departure> leaving = published == null ? List.of() : departures.update(published.endpoints(),
        current.endpoints(), drainTimeouts(specs, published.endpoints()), drainAcknowledged::test, now);
    Lifecycle.Result result = leaving.isEmpty() ? current : Lifecycle.apply(fromSources, overrides, leaving, now);
    Map<String, List<EndpointSpec>> endpoints = result.endpoints();
    Map<EndpointRef, String> causes = result.causes();
    if (intent.ejectionFreeze() != null && published != null) {
      StoredIntent.Freeze f = intent.ejectionFreeze();
      EjectionHold.Result hold = EjectionHold.apply(endpoints, published.endpoints(), overrides,
          "ejections frozen by " + f.actor() + (f.reason().isEmpty() ? "" : ": " + f.reason()), now);
      endpoints = hold.endpoints();
      heldEjections = Map.copyOf(hold.held());
      if (!hold.held().isEmpty()) {
        causes = new java.util.LinkedHashMap<>(causes);
        causes.putAll(hold.held());
      }
    } else {
      heldEjections = Map.of();
    }
    return new Unguarded(endpoints, causes, result.nextChange());
  }

  /** The guards that hold a cluster's update back (mass removal, last eligible endpoints). */
  Result guard(Unguarded unguarded, Intent intent, Snapshot published, ClusterSpecs specs, Instant now) {
    HeldUpdates.Outcome guarded = heldUpdates.apply(published, unguarded.endpoints(), intent.overrides(),
        intent.confirmations(), specs, now);
    return new Result(guarded.endpoints(), unguarded.causes(), earliest(unguarded.nextChange(), guarded.nextChange()),
        guarded.stale());
  }

  /** Updates the guards hold back (mass removal, last eligible endpoints). */
  List<HeldUpdates.Held> held() {
    return heldUpdates.held();
  }

  /** The ejections the last build held back while ejections are frozen, and why. */
  Map<EndpointRef, String> heldEjections() {
    return heldEjections;
  }

  /** The fingerprint of the update of {@code cluster} held now, or null. */
  String heldFingerprint(String cluster) {
    return heldUpdates.fingerprintOf(cluster);
  }

  /** How long a held mass removal must stay unchanged before it is applied without confirmation. */
  void holdStableFor(Duration d) {
    heldUpdates.stableFor(d);
  }

  Duration holdStableFor() {
    return heldUpdates.stableFor();
  }

  private static Instant earliest(Instant a, Instant b) {
    return a == null ? b : b == null || a.isBefore(b) ? a : b;
  }

  /**
   * @param published the clusters clients hold: a departing endpoint's cluster is one of them, and
   *     a cluster only a source discovered takes {@code clusterDefaults.drainTimeout} too
   */
  private static Function<String, Duration> drainTimeouts(ClusterSpecs specs,
      Map<String, List<EndpointSpec>> published) {
    // Asked only for endpoints that start leaving: looked up then, not for every published cluster.
    return cluster -> published.containsKey(cluster) ? specs.get(cluster).effectiveDrainTimeout()
        : ClusterSpec.DEFAULT_DRAIN_TIMEOUT;
  }
}
