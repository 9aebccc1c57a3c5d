package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.Lifecycle;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.model.EndpointSpec;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.store.StoredOverride;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything that overrules the inputs: operator overrides (drain, eject, weight), quarantined
 * resources after a rejection or a rollback, and the freeze. Written by API and rollout threads,
 * read by the writer on every build; each change asks the writer for a rebuild. Overrides are
 * persisted before they take effect, so they survive a restart.
 */
public final class Interventions {

  private static final Logger log = LoggerFactory.getLogger(Interventions.class);

  /** Ejections double from here for repeat offenders, up to {@link #MAX_EJECTION}. */
  public static final Duration BASE_EJECTION = Duration.ofSeconds(30);
  public static final Duration MAX_EJECTION = Duration.ofMinutes(5);
  /** How long an endpoint back from an ejection stays WARMING. */
  public static final Duration EJECTION_WARMUP = Duration.ofSeconds(10);

  /** An ejection refused by the capacity guard. */
  public static final class EjectionRefused extends RuntimeException {
    EjectionRefused(String message) {
      super(message, null, false, false);
    }
  }

  private final Clock clock;
  private final SnapshotStore store;
  private final Runnable rebuild;
  private final Supplier<Snapshot> published;
  private final LongFunction<Snapshot> epochs;
  private final io.micrometer.core.instrument.Counter rollbacks;
  final Quarantine quarantine = new Quarantine();
  private final List<OperatorOverride> overrides = new CopyOnWriteArrayList<>();
  private volatile boolean frozen;
  private volatile long lastSafeEpoch;

  Interventions(Clock clock, SnapshotStore store, Runnable rebuild, Supplier<Snapshot> published,
      LongFunction<Snapshot> epochs, io.micrometer.core.instrument.MeterRegistry meters) {
    this.rollbacks = meters.counter("signalbox_rollbacks");
    this.clock = clock;
    this.store = store;
    this.rebuild = rebuild;
    this.published = published;
    this.epochs = epochs;
    try {
      store.overrides().active().forEach(o -> overrides.add(toOverride(o)));
    } catch (StoreUnavailableException e) {
      log.warn("could not load operator overrides; starting without them: {}", e.getMessage());
    }
  }

  public List<OperatorOverride> overrides() {
    return List.copyOf(overrides);
  }

  public boolean frozen() {
    return frozen;
  }

  public long lastSafeEpoch() {
    return lastSafeEpoch;
  }

  /** Marks {@code endpoint} DRAINING until undrained; {@code deadline} is when it may be considered idle. */
  public void drain(EndpointRef endpoint, Duration deadline, String actor, String reason) {
    Instant now = clock.instant();
    store.overrides().put(new StoredOverride(endpoint.cluster(), endpoint.address(), endpoint.port(), "drain", null,
        actor, reason, now, now.plus(deadline)));
    replace(new OperatorOverride.Drain(endpoint, actor, reason, now, deadline));
  }

  /** @return false if the endpoint was not drained by an operator */
  public boolean undrain(EndpointRef endpoint) {
    boolean removed = store.overrides().remove(endpoint.cluster(), endpoint.address(), endpoint.port(), "drain");
    overrides.removeIf(o -> o instanceof OperatorOverride.Drain && o.endpoint().equals(endpoint));
    rebuild.run();
    return removed;
  }

  /**
   * Ejects {@code endpoint} for a time that doubles for repeat offenders, unless that would take
   * its cluster past {@code maxEjectionPercent}.
   *
   * @return how long it is out
   * @throws EjectionRefused with the reason, changing nothing
   */
  public synchronized Duration eject(EndpointRef endpoint, List<EndpointSpec> clusterEndpoints,
      int maxEjectionPercent, String actor, String reason) {
    // Count ejections not yet published too: two quick ejections must not both slip under the cap.
    Instant at = clock.instant();
    java.util.Set<EndpointRef> ejecting = new java.util.HashSet<>();
    for (OperatorOverride o : overrides) {
      if (o instanceof OperatorOverride.Eject j && at.isBefore(j.until())) {
        ejecting.add(j.endpoint());
      }
    }
    List<EndpointSpec> counted = clusterEndpoints.stream()
        .map(e -> ejecting.contains(EndpointRef.of(endpoint.cluster(), e))
            ? e.withState(io.signalbox.model.EndpointState.EJECTED) : e)
        .toList();
    String refusal = Lifecycle.ejectionRefusal(endpoint.cluster(), counted, endpoint, maxEjectionPercent);
    if (refusal != null) {
      throw new EjectionRefused(refusal);
    }
    int before = store.overrides().count(endpoint.cluster(), endpoint.address(), endpoint.port(), "eject");
    Duration out = Lifecycle.ejectionTime(BASE_EJECTION, before, MAX_EJECTION);
    Instant now = clock.instant();
    store.overrides().put(new StoredOverride(endpoint.cluster(), endpoint.address(), endpoint.port(), "eject", null,
        actor, reason, now, now.plus(out)));
    replace(new OperatorOverride.Eject(endpoint, actor, reason, now, now.plus(out), EJECTION_WARMUP));
    return out;
  }

  public void weight(EndpointRef endpoint, int weight, String actor, String reason) {
    Instant now = clock.instant();
    store.overrides().put(new StoredOverride(endpoint.cluster(), endpoint.address(), endpoint.port(), "weight", weight,
        actor, reason, now, null));
    replace(new OperatorOverride.Weight(endpoint, actor, reason, now, weight));
  }

  private void replace(OperatorOverride o) {
    overrides.removeIf(old -> old.getClass() == o.getClass() && old.endpoint().equals(o.endpoint()));
    overrides.add(o);
    rebuild.run();
  }

  private static OperatorOverride toOverride(StoredOverride s) {
    EndpointRef ref = new EndpointRef(s.cluster(), s.address(), s.port());
    return switch (s.kind()) {
      case "drain" -> new OperatorOverride.Drain(ref, s.actor(), s.reason(), s.createdAt(),
          Duration.between(s.createdAt(), s.deadline() == null ? s.createdAt() : s.deadline()));
      case "eject" -> new OperatorOverride.Eject(ref, s.actor(), s.reason(), s.createdAt(), s.deadline(),
          EJECTION_WARMUP);
      case "weight" -> new OperatorOverride.Weight(ref, s.actor(), s.reason(), s.createdAt(), s.value());
      default -> throw new IllegalStateException("stored override of unknown kind '" + s.kind() + "' for " + ref);
    };
  }

  private volatile Map<String, Long> lastSafeByGroup = Map.of();

  /** Per node group: the newest epoch every connected client of the group fully holds. */
  public Map<String, Long> lastSafeByGroup() {
    return lastSafeByGroup;
  }

  public void lastSafeByGroup(Map<String, Long> byGroup) {
    lastSafeByGroup = Map.copyOf(byGroup);
  }

  /** The rollout controller's verdict: the newest epoch the whole fleet holds with no NACK. */
  public void lastSafe(long epoch) {
    lastSafeEpoch = Math.max(lastSafeEpoch, epoch);
  }

  /**
   * Epoch {@code epoch} drew a NACK: it becomes REJECTED with the client's words, and the next
   * epoch restores each rejected resource from the last safe epoch while the rest of the desired
   * state still holds. The rejected input stays quarantined until it changes again.
   *
   * @param rejected type -> resource name -> the rejected version
   */
  public void rejectEpoch(long epoch, Map<XdsType, Map<String, String>> rejected, String reason) {
    // Before any epoch is SAFE (a fresh start, a rollout still settling), restore what clients held
    // before: the rejected epoch's parent. Never "nothing": that would remove the resource.
    Snapshot rejectedSnapshot = epochs.apply(epoch);
    long restoreFrom = lastSafeEpoch > 0 || rejectedSnapshot == null ? lastSafeEpoch : rejectedSnapshot.parentEpoch();
    rejected.forEach((type, resources) -> resources.forEach((name, version) ->
        quarantine.hold(type, name, version, restoreFrom, "epoch " + epoch + " rejected: " + reason)));
    try {
      store.setStatus(epoch, io.signalbox.store.EpochStatus.REJECTED, reason);
      store.audit(new AuditEntry(clock.instant(), "signalbox", "rollback", "epoch " + epoch,
          "NACKed; restoring " + rejected.values().stream().mapToInt(Map::size).sum()
              + " resource(s) from epoch " + restoreFrom + ": " + reason));
    } catch (StoreUnavailableException e) {
      log.warn("could not record the rejection of epoch {}: {}", epoch, e.getMessage());
    }
    rollbacks.increment();
    log.warn("epoch {} rejected ({}); rolling back {} to epoch {}", epoch, reason, rejected, restoreFrom);
    rebuild.run();
  }

  /**
   * Operator rollback: listeners, route configs and clusters go back to {@code epoch}'s versions
   * in a new epoch (epochs never go backwards), and stay there until their input changes again.
   * Endpoints keep following the sources, so nothing drained or removed comes back.
   *
   * @return how many resources are restored, or -1 if there is no such epoch
   */
  public int rollbackTo(long epoch, String actor) {
    Snapshot target = epochs.apply(epoch);
    Snapshot current = published.get();
    if (target == null || current == null) {
      return -1;
    }
    List<String> restored = new ArrayList<>();
    for (XdsType type : List.of(XdsType.CLUSTER, XdsType.LISTENER, XdsType.ROUTE)) {
      for (var r : current.resources(type).byName().values()) {
        var old = target.resources(type).get(r.name());
        if (old != null && !old.version().equals(r.version())) {
          quarantine.hold(type, r.name(), r.version(), epoch, "rollback to epoch " + epoch + " by " + actor);
          restored.add(type + " " + r.name());
        }
      }
    }
    rollbacks.increment();
    log.warn("rollback to epoch {} by {}: restoring {}", epoch, actor, restored);
    rebuild.run();
    return restored.size();
  }

  /** Holds the current configuration: inputs are still validated and recorded, nothing is published. */
  public void freeze(String actor) {
    frozen = true;
    log.warn("frozen by {}", actor);
  }

  public void unfreeze(String actor) {
    frozen = false;
    log.warn("unfrozen by {}", actor);
    rebuild.run();
  }
}
