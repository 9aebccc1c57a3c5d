package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.EndpointSpec;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.AuditTrail;
import io.signalbox.store.StoreUnavailableException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes every endpoint state transition of a published epoch to the audit log, with its cause:
 * an operator's override, a departure, or the endpoint's source. Bounded per epoch, so a mass
 * change cannot flood the log.
 */
final class TransitionAudit {

  private static final Logger log = LoggerFactory.getLogger(TransitionAudit.class);
  static final int MAX_PER_EPOCH = 500;

  private TransitionAudit() {}

  private record Changed(String cluster, List<EndpointSpec> before, List<EndpointSpec> after) {}

  /**
   * The clusters whose endpoints differ between {@code parent} and {@code published}, in order:
   * those present in either, so a cluster that is gone shows as an empty list.
   */
  private static List<Changed> changed(Snapshot parent, Snapshot published) {
    List<Changed> out = new ArrayList<>();
    published.forEachEndpointChange(parent, (cluster, before, after) -> {
      // An equal list in a distinct instance has no transition.
      if (after == null || !after.equals(before)) {
        out.add(new Changed(cluster, before == null ? List.of() : before, after == null ? List.of() : after));
      }
    });
    return out;
  }

  static void record(AuditTrail store, Snapshot parent, Snapshot published, Map<EndpointRef, String> causes,
      Instant at) {
    if (parent == null) {
      return;
    }
    int written = 0;
    int skipped = 0;
    try {
      for (Changed changed : changed(parent, published)) {
        String cluster = changed.cluster();
        Map<String, EndpointSpec> before = new HashMap<>();
        changed.before().forEach(e -> before.put(e.key(), e));
        for (EndpointSpec e : changed.after()) {
          EndpointSpec old = before.remove(e.key());
          if (old != null && old.state() == e.state()) {
            continue;
          }
          EndpointRef ref = EndpointRef.of(cluster, e);
          String cause = causes.getOrDefault(ref, "source " + e.origin());
          String change = (old == null ? "new" : old.state().name()) + " -> " + e.state().name();
          if (written++ < MAX_PER_EPOCH) {
            store.audit(new AuditEntry(at, "signalbox", "transition", ref.toString(),
                change + " in epoch " + published.epoch() + " (" + cause + ")"));
          } else {
            skipped++;
          }
        }
        for (EndpointSpec gone : before.values()) {
          if (written++ < MAX_PER_EPOCH) {
            store.audit(new AuditEntry(at, "signalbox", "transition", EndpointRef.of(cluster, gone).toString(),
                gone.state().name() + " -> removed in epoch " + published.epoch()));
          } else {
            skipped++;
          }
        }
      }
    } catch (StoreUnavailableException e) {
      log.warn("could not audit the endpoint transitions of epoch {}: {}", published.epoch(), e.getMessage());
      return;
    }
    if (skipped > 0) {
      log.info("epoch {}: {} more endpoint transitions not written to the audit log", published.epoch(), skipped);
    }
  }
}
