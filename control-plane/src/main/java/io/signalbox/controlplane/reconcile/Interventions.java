package io.signalbox.controlplane.reconcile;

import io.micrometer.core.instrument.MeterRegistry;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.Lifecycle;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoredIntent;
import io.signalbox.store.StoredOverride;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything that overrules the inputs: operator overrides (drain, eject, weight), quarantined
 * resources after a rejection or a rollback, confirmations of held updates, and the freeze.
 *
 * <p>Every intervention runs on one thread, in order: it is stored first (the store is the
 * authority, so it survives a restart, a crash or a change of leader), then the writer's copy of
 * the intent ({@link Intent}, immutable) is replaced and the writer asked to rebuild. Nothing runs
 * under a lock, and each returns an {@link Outcome} rather than throwing for an expected refusal.
 * Until the stored intent has been read, nothing is built and nothing is accepted: starting
 * without it would undo drains and rollbacks (fail closed).
 */
public final class Interventions implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Interventions.class);

  /** Ejections double from here for repeat offenders, up to {@link #MAX_EJECTION}. */
  public static final Duration BASE_EJECTION = Duration.ofSeconds(30);
  public static final Duration MAX_EJECTION = Duration.ofMinutes(5);
  /** How long an endpoint back from an ejection stays WARMING. */
  public static final Duration EJECTION_WARMUP = Duration.ofSeconds(10);

  private final SnapshotStore store;
  private final IntentThread thread;
  private final Rollbacks rollbacks;
  private final Supplier<Snapshot> published;

  // Read by the writer, the rollout and the API.
  private volatile long revision = -1;
  private volatile long lastSafeEpoch;
  private volatile Map<String, Long> lastSafeByGroup = Map.of();

  Interventions(Clock clock, SnapshotStore store, Consumer<String> rebuild, Supplier<Snapshot> published,
      LongFunction<Snapshot> epochs, MeterRegistry meters) {
    this.store = store;
    this.published = published;
    this.thread = new IntentThread(clock, rebuild);
    this.rollbacks = new Rollbacks(thread, store, published, epochs, () -> lastSafeEpoch,
        meters.counter("signalbox_rollbacks"));
  }

  /**
   * Reads the stored intent (and the last SAFE epoch) into the writer's copy. At start, and again
   * whenever the store's revision moved without this process writing (another replica did).
   *
   * @return whether it could be read; if not, {@link #unreadable} says why
   */
  public boolean load() {
    Outcome<Boolean> read = thread.run(() -> {
      StoredIntent stored = store.intent().read();
      long safe = store.newestWithStatus(EpochStatus.SAFE).map(r -> r.epoch()).orElse(0L);
      Intent fresh = Intent.from(stored);
      if (thread.intent() == null) {
        log.info("operator intent read: {}{}, {}, {}; last safe epoch {}",
            fresh.frozen() ? "frozen by " + fresh.freeze().actor() + ", " : "",
            count(fresh.overrides().size(), "override"), count(fresh.quarantine().size(), "quarantined resource"),
            count(fresh.confirmations().size(), "confirmation"), safe);
      }
      thread.replace(fresh);
      revision = stored.revision();
      lastSafeEpoch = Math.max(lastSafeEpoch, safe);
      thread.unreadable(null);
      return Outcome.applied(true);
    });
    if (read instanceof Outcome.Unavailable<Boolean> u) {
      if (!u.message().equals(thread.unreadable())) {
        log.error("operator intent cannot be read; serving the stored epoch and publishing nothing new until "
            + "it can: {}", u.message());
      }
      thread.unreadable(u.message());
      return false;
    }
    return true;
  }

  /** The intent the writer applies, or null until it has been read. */
  public Intent intent() {
    return thread.intent();
  }

  /** Why the stored intent could not be read, or null once it has been. */
  public String unreadable() {
    return thread.unreadable();
  }

  /**
   * The store's intent revision when the copy was last read (see {@link io.signalbox.store.IntentStore}):
   * a different revision in the store means someone (maybe another replica) changed it since.
   */
  public long revisionRead() {
    return revision;
  }

  public List<OperatorOverride> overrides() {
    Intent i = thread.intent();
    return i == null ? List.of() : i.overrides();
  }

  public boolean frozen() {
    Intent i = thread.intent();
    return i != null && i.frozen();
  }

  public long lastSafeEpoch() {
    return lastSafeEpoch;
  }

  /** What retention keeps whatever its age: the last safe epoch and the epochs quarantine restores from. */
  java.util.Set<Long> epochsToKeep() {
    java.util.Set<Long> keep = new java.util.HashSet<>();
    keep.add(lastSafeEpoch);
    Intent intent = intent();
    if (intent != null) {
      intent.quarantine().values().forEach(e -> keep.add(e.restoreEpoch()));
    }
    return keep;
  }

  /** The rollout controller's verdict: the newest epoch the whole fleet holds with no NACK. */
  public void lastSafe(long epoch) {
    lastSafeEpoch = Math.max(lastSafeEpoch, epoch);
  }

  /** Per node group: the newest epoch every connected client of the group holds. */
  public Map<String, Long> lastSafeByGroup() {
    return lastSafeByGroup;
  }

  public void lastSafeByGroup(Map<String, Long> byGroup) {
    lastSafeByGroup = Map.copyOf(byGroup);
  }

  /**
   * Marks {@code endpoint} DRAINING until undrained; {@code deadline} is when it may be considered
   * idle.
   *
   * @return when the deadline passes
   */
  public Outcome<Instant> drain(EndpointRef endpoint, Duration deadline, String actor, String reason) {
    return thread.change(current -> {
      Instant now = thread.now();
      store.overrides().put(new StoredOverride(endpoint.cluster(), endpoint.address(), endpoint.port(), "drain",
          null, actor, reason, now, now.plus(deadline)));
      thread.replace(current.withOverride(new OperatorOverride.Drain(endpoint, actor, reason, now, deadline)));
      return Outcome.applied(now.plus(deadline));
    });
  }

  private static String count(int n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  /** Ends an operator's drain; refused ({@code not_draining}) if there is none. */
  public Outcome<EndpointRef> undrain(EndpointRef endpoint) {
    return thread.change(current -> {
      if (!store.overrides().remove(endpoint.cluster(), endpoint.address(), endpoint.port(), "drain")) {
        return Outcome.refused("not_draining", endpoint + " is not being drained by an operator");
      }
      thread.replace(current.withoutOverride(OperatorOverride.Drain.class, endpoint));
      return Outcome.applied(endpoint);
    });
  }

  /**
   * Ejects {@code endpoint} for a time that doubles for repeat offenders, unless that would take
   * its cluster past {@code maxEjectionPercent} (refused: {@code ejection_cap}). Ejections already
   * made but not yet published count: two quick ejections must not both slip under the cap.
   *
   * @return how long it is out
   */
  public Outcome<Duration> eject(EndpointRef endpoint, int maxEjectionPercent, String actor, String reason) {
    return thread.change(current -> {
      Snapshot s = published.get();
      List<EndpointSpec> endpoints = s == null ? List.of() : s.endpoints().getOrDefault(endpoint.cluster(), List.of());
      Instant now = thread.now();
      Set<EndpointRef> ejecting = new HashSet<>();
      for (OperatorOverride o : current.overrides()) {
        if (o instanceof OperatorOverride.Eject j && now.isBefore(j.until())) {
          ejecting.add(j.endpoint());
        }
      }
      List<EndpointSpec> counted = endpoints.stream()
          .map(e -> ejecting.contains(EndpointRef.of(endpoint.cluster(), e)) ? e.withState(EndpointState.EJECTED) : e)
          .toList();
      String refusal = Lifecycle.ejectionRefusal(endpoint.cluster(), counted, endpoint, maxEjectionPercent);
      if (refusal != null) {
        return Outcome.refused("ejection_cap", refusal);
      }
      Duration out = Lifecycle.ejectionTime(BASE_EJECTION, current.ejectionsOf(endpoint), MAX_EJECTION);
      store.overrides().put(new StoredOverride(endpoint.cluster(), endpoint.address(), endpoint.port(), "eject",
          null, actor, reason, now, now.plus(out)));
      thread.replace(current.withOverride(new OperatorOverride.Eject(endpoint, actor, reason, now, now.plus(out),
          EJECTION_WARMUP)));
      return Outcome.applied(out);
    });
  }

  public Outcome<Integer> weight(EndpointRef endpoint, int weight, String actor, String reason) {
    return thread.change(current -> {
      Instant now = thread.now();
      store.overrides().put(new StoredOverride(endpoint.cluster(), endpoint.address(), endpoint.port(), "weight",
          weight, actor, reason, now, null));
      thread.replace(current.withOverride(new OperatorOverride.Weight(endpoint, actor, reason, now, weight)));
      return Outcome.applied(weight);
    });
  }

  /** Holds the current configuration: inputs are still validated and recorded, nothing is published. */
  public Outcome<StoredIntent.Freeze> freeze(String actor, String reason) {
    return thread.change(current -> {
      StoredIntent.Freeze f = new StoredIntent.Freeze(actor, reason, thread.now());
      store.intent().freeze(f);
      thread.replace(current.withFreeze(f));
      log.warn("frozen by {}: {}", actor, reason);
      return Outcome.applied(f);
    });
  }

  /** @return whether there was a freeze to lift */
  public Outcome<Boolean> unfreeze(String actor) {
    return thread.change(current -> {
      boolean was = store.intent().unfreeze();
      thread.replace(current.withFreeze(null));
      if (was) {
        log.warn("unfrozen by {}", actor);
      }
      return Outcome.applied(was);
    }, was -> "unfreeze by " + actor);
  }

  /**
   * Stops ejections a source asks for (a policy or outlier system) from being published: each is
   * held, visible in status and {@code why}, until unfrozen. An operator's {@code eject} still applies.
   */
  public Outcome<StoredIntent.Freeze> freezeEjections(String actor, String reason) {
    return thread.change(current -> {
      StoredIntent.Freeze f = new StoredIntent.Freeze(actor, reason, thread.now());
      store.intent().freezeEjections(f);
      thread.replace(current.withEjectionFreeze(f));
      log.info("ejections frozen by {}: {}", actor, reason);
      return Outcome.applied(f);
    });
  }

  /** @return whether ejections were frozen */
  public Outcome<Boolean> unfreezeEjections(String actor, String reason) {
    return thread.change(current -> {
      boolean was = store.intent().unfreezeEjections();
      thread.replace(current.withEjectionFreeze(null));
      if (was) {
        log.info("ejections unfrozen by {}: {}", actor, reason);
      }
      return Outcome.applied(was);
    });
  }

  /**
   * Clients of {@code cluster} drop {@code perMillion} of their calls under {@code category} (EDS
   * {@code drop_overloads}); replaces the cluster's drop of that category. The share was checked
   * by {@link io.signalbox.validation.DropRules}.
   *
   * @return every drop of the cluster now, in the order clients apply them
   */
  public Outcome<List<StoredIntent.Drop>> shed(String cluster, String category, int perMillion, String actor,
      String reason) {
    return thread.change(current -> {
      StoredIntent.Drop d = new StoredIntent.Drop(cluster, category, perMillion, actor, reason, thread.now());
      store.intent().drop(d);
      Intent next = current.withDrop(d);
      thread.replace(next);
      log.info("cluster '{}' sheds {}% of calls as '{}', set by {}: {}", cluster,
          io.signalbox.validation.DropRules.percent(perMillion), category, actor, reason);
      return Outcome.applied(next.dropsOf(cluster));
    });
  }

  /** Lifts the drops of {@code cluster} (only {@code category}'s when given); refused if there are none. */
  public Outcome<Integer> unshed(String cluster, String category, String actor, String reason) {
    return thread.change(current -> {
      int removed = store.intent().undrop(cluster, category);
      if (removed == 0) {
        return Outcome.refused("not_shedding", "cluster '" + cluster + "' has no operator drop"
            + (category == null ? "" : " of category '" + category + "'"));
      }
      thread.replace(current.withoutDrops(cluster, category));
      log.info("cluster '{}' stops shedding{}, lifted by {}: {}", cluster,
          category == null ? "" : " as '" + category + "'", actor, reason);
      return Outcome.applied(removed);
    });
  }

  /**
   * An operator lets the held update of {@code cluster} through while it stays as it is now.
   *
   * @param fingerprint the held update's ({@link HeldUpdates#fingerprint}), or null if none is held
   */
  public Outcome<String> confirm(String cluster, String fingerprint, String actor) {
    if (fingerprint == null) {
      return Outcome.refused("nothing_held", "no update of cluster '" + cluster + "' is held");
    }
    return thread.change(current -> {
      store.intent().confirm(new StoredIntent.Confirmation(cluster, fingerprint, actor, thread.now()));
      thread.replace(current.withConfirmation(cluster, fingerprint));
      return Outcome.applied(cluster);
    });
  }

  /**
   * Operator rollback: listeners, route configs and clusters go back to {@code epoch}'s versions
   * in a new epoch (epochs never go backwards), and stay there until their input changes again.
   * Endpoints keep following the sources, so nothing drained or removed comes back.
   *
   * @param epoch the epoch to restore, or null for the last safe one
   * @return from which epoch, and how many resources are restored
   */
  public Outcome<Map.Entry<Long, Integer>> rollbackTo(Long epoch, String actor, String reason) {
    return rollbacks.rollbackTo(epoch, actor, reason);
  }

  /**
   * Clients refuse versions newer than the last safe epoch: every epoch from {@code firstEpoch} to
   * {@code lastEpoch} carries them and becomes REJECTED with the client's words, and the next epoch
   * restores each refused resource from the last safe epoch (before any is SAFE: from the epoch
   * before {@code firstEpoch}) while the rest of the desired state still holds. The refused input
   * stays quarantined until it changes again, so an epoch built on top of it carries the quarantine.
   *
   * @param refused type -> resource name -> the refused version
   */
  public Outcome<Long> rejectRefused(Map<XdsType, Map<String, String>> refused, long firstEpoch, long lastEpoch,
      String reason) {
    return rollbacks.rejectRefused(refused, firstEpoch, lastEpoch, reason);
  }

  /** The writer found that the input behind these quarantine entries changed. */
  void lift(Map<Quarantine.Key, String> lifted) {
    rollbacks.lift(lifted);
  }

  /** Confirmations of holds that are no longer held are forgotten, in the background. */
  void forgetConfirmations(Set<String> clusters) {
    if (clusters.isEmpty()) {
      return;
    }
    thread.background("forget the confirmations of " + clusters, current -> {
      Intent next = current;
      for (String c : clusters) {
        store.intent().clearConfirmation(c);
        next = next.withoutConfirmation(c);
      }
      return next;
    });
  }

  @Override
  public void close() {
    thread.close();
  }
}
