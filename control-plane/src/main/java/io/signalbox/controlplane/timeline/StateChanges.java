package io.signalbox.controlplane.timeline;

import io.signalbox.controlplane.reconcile.HeldUpdates;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.source.SourceHealth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What changed between two looks at the writer's state that nothing else records: the updates the
 * guards hold and the health of each source. Fed every view the writer leaves after a build, it
 * answers the changes since the one before, as audit entries to write. No I/O and no clock: the
 * caller stamps and writes them. Confined to one thread (the writer's).
 */
public final class StateChanges {

  /** One change, as {@link SystemAudit} records it. */
  public record Change(String action, String target, String reason) {}

  private Map<String, HeldUpdates.Held> held = Map.of();
  private Map<String, Source> sources = Map.of();

  private record Source(SourceHealth health, List<String> problems) {}

  /**
   * @param held the updates held now
   * @param confirmed the clusters (or {@link Reconciler#confirmConfigKey()}) an operator's confirmation lets through now:
   *     a hold that ends while its confirmation stands was released by it
   * @param health each source's health now
   * @param problems each source's problems now (sources without any may be missing)
   * @return the changes since the last call, holds first, in a stable order
   */
  public List<Change> next(List<HeldUpdates.Held> held, Set<String> confirmed, Map<String, SourceHealth> health,
      Map<String, List<String>> problems) {
    List<Change> out = new ArrayList<>();
    Map<String, HeldUpdates.Held> nowHeld = new LinkedHashMap<>();
    held.forEach(h -> nowHeld.put(key(h), h));
    nowHeld.forEach((key, h) -> {
      HeldUpdates.Held before = this.held.get(key);
      // A hold whose message changed is another update held (the input moved on while held).
      if (before == null || !before.message().equals(h.message())) {
        out.add(new Change(SystemAudit.HOLD, target(h), h.rule() + ": " + h.message()));
      }
    });
    this.held.forEach((key, h) -> {
      if (!nowHeld.containsKey(key)) {
        out.add(new Change(SystemAudit.RELEASE, target(h), confirmed.contains(key)
            ? "released by an operator's confirmation (" + h.rule() + ")"
            : "no longer held (" + h.rule() + "): the update went out or the input changed"));
      }
    });
    this.held = nowHeld;

    Map<String, Source> nowSources = new HashMap<>();
    health.forEach((id, h) -> nowSources.put(id, new Source(h, problems.getOrDefault(id, List.of()))));
    health.keySet().stream().sorted().forEach(id -> {
      Source now = nowSources.get(id);
      Source before = sources.get(id);
      boolean failing = now.health() != SourceHealth.FRESH;
      boolean wasFailing = before != null && before.health() != SourceHealth.FRESH;
      if (failing && (!wasFailing || !before.equals(now))) {
        out.add(new Change(SystemAudit.SOURCE_FAILED, id, now.health() + ": "
            + (now.problems().isEmpty() ? "no problem reported" : String.join("; ", now.problems()))));
      } else if (!failing && wasFailing) {
        out.add(new Change(SystemAudit.SOURCE_RECOVERED, id, "FRESH again (was " + before.health() + ")"));
      }
    });
    this.sources = nowSources;
    return out;
  }

  /** The key a confirmation names: the cluster, or the config's own key for a config reload. */
  private static String key(HeldUpdates.Held h) {
    return h.cluster() != null ? h.cluster() : Reconciler.confirmConfigKey();
  }

  /** As the operator's {@code confirm} of it names its target in the audit trail. */
  private static String target(HeldUpdates.Held h) {
    return h.cluster() != null ? "cluster " + h.cluster() : "config";
  }
}
