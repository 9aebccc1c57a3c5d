package io.signalbox.controlplane.reconcile;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.Lifecycle;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.store.StoredIntent;
import io.signalbox.store.StoredOverride;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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

  private final Clock clock;
  private final SnapshotStore store;
  private final Runnable rebuild;
  private final Supplier<Snapshot> published;
  private final LongFunction<Snapshot> epochs;
  private final Counter rollbacks;
  private final ExecutorService executor;

  // Written only on the executor; read by the writer, the rollout and the API.
  private volatile Intent intent;
  private volatile String unreadable = "not read yet";
  private volatile long revision = -1;
  private volatile long lastSafeEpoch;
  private volatile Map<String, Long> lastSafeByGroup = Map.of();

  Interventions(Clock clock, SnapshotStore store, Runnable rebuild, Supplier<Snapshot> published,
      LongFunction<Snapshot> epochs, MeterRegistry meters) {
    this.rollbacks = meters.counter("signalbox_rollbacks");
    this.clock = clock;
    this.store = store;
    this.rebuild = rebuild;
    this.published = published;
    this.epochs = epochs;
    this.executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "interventions");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Reads the stored intent (and the last SAFE epoch) into the writer's copy. At start, and again
   * whenever the store's revision moved without this process writing (another replica did).
   *
   * @return whether it could be read; if not, {@link #unreadable} says why
   */
  public boolean load() {
    Outcome<Boolean> read = run(() -> {
      StoredIntent stored = store.intent().read();
      long safe = store.newestWithStatus(EpochStatus.SAFE).map(r -> r.epoch()).orElse(0L);
      Intent fresh = Intent.from(stored);
      if (intent == null) {
        log.info("operator intent read: {}{} override(s), {} quarantined resource(s), {} confirmation(s); "
            + "last safe epoch {}", fresh.frozen() ? "frozen by " + fresh.freeze().actor() + ", " : "",
            fresh.overrides().size(), fresh.quarantine().size(), fresh.confirmations().size(), safe);
      }
      intent = fresh;
      revision = stored.revision();
      lastSafeEpoch = Math.max(lastSafeEpoch, safe);
      unreadable = null;
      return Outcome.applied(true);
    });
    if (read instanceof Outcome.Unavailable<Boolean> u) {
      if (!u.message().equals(unreadable)) {
        log.error("operator intent cannot be read; serving the stored epoch and publishing nothing new until "
            + "it can: {}", u.message());
      }
      unreadable = u.message();
      return false;
    }
    return true;
  }

  /** The intent the writer applies, or null until it has been read. */
  public Intent intent() {
    return intent;
  }

  /** Why the stored intent could not be read, or null once it has been. */
  public String unreadable() {
    return unreadable;
  }

  /**
   * The store's intent revision when the copy was last read (see {@link io.signalbox.store.IntentStore}):
   * a different revision in the store means someone (maybe another replica) changed it since.
   */
  public long revisionRead() {
    return revision;
  }

  public List<OperatorOverride> overrides() {
    Intent i = intent;
    return i == null ? List.of() : i.overrides();
  }

  public boolean frozen() {
    Intent i = intent;
    return i != null && i.frozen();
  }

  public long lastSafeEpoch() {
    return lastSafeEpoch;
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
    return change(current -> {
      Instant now = now();
      store.overrides().put(new StoredOverride(endpoint.cluster(), endpoint.address(), endpoint.port(), "drain",
          null, actor, reason, now, now.plus(deadline)));
      intent = current.withOverride(new OperatorOverride.Drain(endpoint, actor, reason, now, deadline));
      return Outcome.applied(now.plus(deadline));
    });
  }

  /** Ends an operator's drain; refused ({@code not_draining}) if there is none. */
  public Outcome<EndpointRef> undrain(EndpointRef endpoint) {
    return change(current -> {
      if (!store.overrides().remove(endpoint.cluster(), endpoint.address(), endpoint.port(), "drain")) {
        return Outcome.refused("not_draining", endpoint + " is not being drained by an operator");
      }
      intent = current.withoutOverride(OperatorOverride.Drain.class, endpoint);
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
    return change(current -> {
      Snapshot s = published.get();
      List<EndpointSpec> endpoints = s == null ? List.of() : s.endpoints().getOrDefault(endpoint.cluster(), List.of());
      Instant now = now();
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
      intent = current.withOverride(new OperatorOverride.Eject(endpoint, actor, reason, now, now.plus(out),
          EJECTION_WARMUP));
      return Outcome.applied(out);
    });
  }

  public Outcome<Integer> weight(EndpointRef endpoint, int weight, String actor, String reason) {
    return change(current -> {
      Instant now = now();
      store.overrides().put(new StoredOverride(endpoint.cluster(), endpoint.address(), endpoint.port(), "weight",
          weight, actor, reason, now, null));
      intent = current.withOverride(new OperatorOverride.Weight(endpoint, actor, reason, now, weight));
      return Outcome.applied(weight);
    });
  }

  /** Holds the current configuration: inputs are still validated and recorded, nothing is published. */
  public Outcome<StoredIntent.Freeze> freeze(String actor, String reason) {
    return change(current -> {
      StoredIntent.Freeze f = new StoredIntent.Freeze(actor, reason, now());
      store.intent().freeze(f);
      intent = current.withFreeze(f);
      log.warn("frozen by {}: {}", actor, reason);
      return Outcome.applied(f);
    });
  }

  /** @return whether there was a freeze to lift */
  public Outcome<Boolean> unfreeze(String actor) {
    return change(current -> {
      boolean was = store.intent().unfreeze();
      intent = current.withFreeze(null);
      log.warn("unfrozen by {}", actor);
      return Outcome.applied(was);
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
    return change(current -> {
      store.intent().confirm(new StoredIntent.Confirmation(cluster, fingerprint, actor, now()));
      intent = current.withConfirmation(cluster, fingerprint);
      return Outcome.applied(cluster);
    });
  }

  /**
   * Operator rollback: listeners, route configs and clusters go back to {@code epoch}'s versions
   * in a new epoch (epochs never go backwards), and stay there until their input changes again.
   * Endpoints keep following the sources, so nothing drained or removed comes back.
   *
   * @param epoch the epoch to restore, or null for the last safe one
   * @return how many resources are restored, and from which epoch
   */
  public Outcome<Map.Entry<Long, Integer>> rollbackTo(Long epoch, String actor, String reason) {
    return change(current -> {
      long to = epoch != null ? epoch : lastSafeEpoch;
      if (to <= 0) {
        return Outcome.refused("no_safe_epoch", "no epoch is SAFE yet; name one with {\"to\": N}");
      }
      Snapshot target = epochs.apply(to);
      Snapshot now = published.get();
      if (target == null || now == null) {
        return Outcome.refused("unknown_epoch", "no epoch " + to);
      }
      Map<Quarantine.Key, Quarantine.Entry> held = new HashMap<>();
      Instant at = now();
      String why = "rollback to epoch " + to + " by " + actor + (reason.isEmpty() ? "" : ": " + reason);
      for (XdsType type : List.of(XdsType.CLUSTER, XdsType.LISTENER, XdsType.ROUTE)) {
        for (XdsResource r : now.resources(type).byName().values()) {
          XdsResource old = target.resources(type).get(r.name());
          if (old != null && !old.version().equals(r.version())) {
            held.put(new Quarantine.Key(type, r.name()), new Quarantine.Entry(r.version(), to, why, actor, at));
          }
        }
      }
      quarantine(current, held);
      rollbacks.increment();
      log.warn("rollback to epoch {} by {}: restoring {}", to, actor, held.keySet());
      return Outcome.applied(Map.entry(to, held.size()));
    });
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
    return change(current -> {
      long restoreFrom = lastSafeEpoch;
      if (restoreFrom <= 0) {
        // Never "nothing": that would remove the resource from clients that accepted it.
        Snapshot first = epochs.apply(firstEpoch);
        restoreFrom = first == null ? firstEpoch - 1 : first.parentEpoch();
      }
      Map<Quarantine.Key, Quarantine.Entry> held = new HashMap<>();
      Instant at = now();
      String why = "epochs " + firstEpoch + ".." + lastEpoch + " rejected: " + reason;
      long from = restoreFrom;
      refused.forEach((type, resources) -> resources.forEach((name, version) ->
          held.put(new Quarantine.Key(type, name), new Quarantine.Entry(version, from, why, "signalbox", at))));
      quarantine(current, held);
      for (long e = Math.max(firstEpoch, restoreFrom + 1); e <= lastEpoch; e++) {
        markRejected(e, reason);
      }
      store.audit(new AuditEntry(at, "signalbox", "rollback", "epochs " + firstEpoch + ".." + lastEpoch,
          "NACKed; restoring " + held.size() + " resource(s) from epoch " + restoreFrom + ": " + reason));
      rollbacks.increment();
      log.warn("epochs {}..{} rejected ({}); rolling back {} to epoch {}", firstEpoch, lastEpoch, reason,
          refused, restoreFrom);
      return Outcome.applied(restoreFrom);
    });
  }

  private void markRejected(long epoch, String reason) {
    try {
      store.setStatus(epoch, EpochStatus.REJECTED, reason);
    } catch (IllegalArgumentException e) {
      // Pruned or never stored (an epoch number is never reused): nothing to mark.
    }
  }

  private void quarantine(Intent current, Map<Quarantine.Key, Quarantine.Entry> held) {
    List<StoredIntent.Quarantined> rows = new ArrayList<>();
    held.forEach((k, e) -> rows.add(new StoredIntent.Quarantined(k.type().name(), k.name(), e.rejectedVersion(),
        e.restoreEpoch(), e.reason(), e.actor(), e.at())));
    if (!rows.isEmpty()) {
      store.intent().quarantine(rows);
    }
    intent = current.withQuarantined(held);
  }

  /**
   * The writer found that the input behind these quarantine entries changed: they are lifted, in
   * the background (an entry the writer no longer applies is harmless until then).
   */
  void lift(Map<Quarantine.Key, String> lifted) {
    if (lifted.isEmpty()) {
      return;
    }
    executor.execute(() -> {
      try {
        Intent next = intent;
        for (var e : lifted.entrySet()) {
          store.intent().lift(e.getKey().type().name(), e.getKey().name(), e.getValue());
          next = next.lifted(e.getKey(), e.getValue());
        }
        intent = next;
      } catch (StoreUnavailableException e) {
        log.warn("could not lift quarantined resources {} (the next build tries again): {}", lifted.keySet(),
            e.getMessage());
      }
    });
  }

  /** Confirmations of holds that are no longer held are forgotten, in the background. */
  void forgetConfirmations(Set<String> clusters) {
    if (clusters.isEmpty()) {
      return;
    }
    executor.execute(() -> {
      try {
        Intent next = intent;
        for (String c : clusters) {
          store.intent().clearConfirmation(c);
          next = next.withoutConfirmation(c);
        }
        intent = next;
      } catch (StoreUnavailableException e) {
        log.warn("could not forget the confirmations of {}: {}", clusters, e.getMessage());
      }
    });
  }

  /** One change to the intent: on the executor, against the intent as read, never before it is. */
  private <T> Outcome<T> change(java.util.function.Function<Intent, Outcome<T>> work) {
    Outcome<T> outcome = run(() -> {
      Intent current = intent;
      if (current == null) {
        return new Outcome.Unavailable<>("operator intent has not been read from the store yet: " + unreadable);
      }
      return work.apply(current);
    });
    if (outcome instanceof Outcome.Applied<T>) {
      rebuild.run();
    }
    return outcome;
  }

  private <T> Outcome<T> run(Callable<Outcome<T>> work) {
    try {
      return executor.submit(() -> {
        try {
          return work.call();
        } catch (StoreUnavailableException e) {
          return new Outcome.Unavailable<T>(e.getMessage());
        }
      }).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome.Unavailable<>("interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Times as the store keeps them (microseconds), so the copy equals what a restart reads back. */
  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  @Override
  public void close() {
    executor.shutdown();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
