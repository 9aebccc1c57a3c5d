package io.signalbox.controlplane.reconcile;

import io.micrometer.core.instrument.Counter;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoredIntent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rollbacks, operator's and automatic, as quarantine entries: while translation still yields the
 * rolled-back version of a resource, the restored version is served in a new epoch (epochs never go
 * backwards). Stored before they apply, on the {@link IntentThread}.
 */
final class Rollbacks {

  private static final Logger log = LoggerFactory.getLogger(Rollbacks.class);

  private final IntentThread thread;
  private final SnapshotStore store;
  private final Supplier<Snapshot> published;
  private final LongFunction<Snapshot> epochs;
  private final LongSupplier lastSafeEpoch;
  private final Counter rollbacks;

  Rollbacks(IntentThread thread, SnapshotStore store, Supplier<Snapshot> published, LongFunction<Snapshot> epochs,
      LongSupplier lastSafeEpoch, Counter rollbacks) {
    this.thread = thread;
    this.store = store;
    this.published = published;
    this.epochs = epochs;
    this.lastSafeEpoch = lastSafeEpoch;
    this.rollbacks = rollbacks;
  }

  /** See {@link Interventions#rollbackTo}. */
  Outcome<Map.Entry<Long, Integer>> rollbackTo(Long epoch, String actor, String reason) {
    return thread.change(current -> {
      long to = epoch != null ? epoch : lastSafeEpoch.getAsLong();
      if (to <= 0) {
        return Outcome.refused("no_safe_epoch", "no epoch is SAFE yet; name one with {\"to\": N}");
      }
      Snapshot target = epochs.apply(to);
      Snapshot now = published.get();
      if (target == null || now == null) {
        return Outcome.refused("unknown_epoch", "no epoch " + to);
      }
      Map<Quarantine.Key, Quarantine.Entry> held = new HashMap<>();
      Instant at = thread.now();
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
    }, done -> "rollback to epoch " + done.getKey() + (epoch == null ? " (the last safe)" : "") + " by " + actor
        + (reason.isEmpty() ? "" : ": " + reason));
  }

  /** See {@link Interventions#rejectRefused}. */
  Outcome<Long> rejectRefused(Map<XdsType, Map<String, String>> refused, long firstEpoch, long lastEpoch,
      String reason) {
    return thread.change(current -> {
      long restoreFrom = lastSafeEpoch.getAsLong();
      if (restoreFrom <= 0) {
        // Never "nothing": that would remove the resource from clients that accepted it.
        Snapshot first = epochs.apply(firstEpoch);
        restoreFrom = first == null ? firstEpoch - 1 : first.parentEpoch();
      }
      Map<Quarantine.Key, Quarantine.Entry> held = new HashMap<>();
      Instant at = thread.now();
      String why = "epochs " + firstEpoch + ".." + lastEpoch + " rejected: " + reason;
      long from = restoreFrom;
      refused.forEach((type, resources) -> resources.forEach((name, version) ->
          held.put(new Quarantine.Key(type, name), new Quarantine.Entry(version, from, why, "signalbox", at))));
      quarantine(current, held);
      for (long e = Math.max(firstEpoch, restoreFrom + 1); e <= lastEpoch; e++) {
        markRejected(e, reason);
      }
      store.audit(new AuditEntry(at, "signalbox", "rollback", "epochs " + firstEpoch + ".." + lastEpoch,
          "NACKed; restoring " + held.size() + (held.size() == 1 ? " resource" : " resources") + " from epoch " + restoreFrom + ": " + reason));
      rollbacks.increment();
      log.warn("epochs {}..{} rejected ({}); rolling back {} to epoch {}", firstEpoch, lastEpoch, reason,
          refused, restoreFrom);
      return Outcome.applied(restoreFrom);
      // The epoch it builds says what it is, as an operator's rollback's does (the timeline lists both).
    }, from -> "automatic rollback of epochs " + firstEpoch + ".." + lastEpoch + " to epoch " + from + " (NACKed)");
  }

  /** The writer found that the input behind these entries changed: lifted in the background. */
  void lift(Map<Quarantine.Key, String> lifted) {
    if (lifted.isEmpty()) {
      return;
    }
    thread.background("lift quarantined resources " + lifted.keySet(), current -> {
      Intent next = current;
      for (var e : lifted.entrySet()) {
        store.intent().lift(e.getKey().type().name(), e.getKey().name(), e.getValue());
        next = next.lifted(e.getKey(), e.getValue());
      }
      return next;
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
    thread.replace(current.withQuarantined(held));
  }
}
