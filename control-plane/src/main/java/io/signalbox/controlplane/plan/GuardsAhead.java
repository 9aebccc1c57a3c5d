package io.signalbox.controlplane.plan;

import io.signalbox.controlplane.reconcile.HeldUpdates;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.Lifecycle;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.store.StoredIntent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The guards a plan would meet, in the writer's words: the holds the rehearsal found (the config
 * guard, mass removal, minimum eligible: {@code reconcile/Rehearsal}), a freeze that would keep the
 * change from being published, and the ejection cap where the planned endpoints and cap leave a
 * cluster with more ejections than its cap allows (further ejections are refused until some come
 * back). Pure.
 */
final class GuardsAhead {

  static final String EJECTION_CAP = "guard.ejection-cap";

  private GuardsAhead() {}

  static List<Plan.Hold> of(List<HeldUpdates.Held> held, StoredIntent.Freeze freeze,
      Map<String, List<EndpointSpec>> planned, Function<String, ClusterSpec> specs) {
    List<Plan.Hold> out = new ArrayList<>();
    if (freeze != null) {
      out.add(new Plan.Hold("freeze", null, "publishing is frozen by " + freeze.actor()
          + (freeze.reason().isEmpty() ? "" : " (" + freeze.reason() + ")") + ": the change would be validated, not published",
          "'signalbox unfreeze' publishes what the inputs say now"));
    }
    for (HeldUpdates.Held h : held) {
      out.add(new Plan.Hold(h.rule(), h.cluster(), h.message(), h.release()));
    }
    new TreeMap<>(planned).forEach((cluster, endpoints) -> {
      int cap = specs.apply(cluster).effectiveMaxEjectionPercent();
      String over = overCap(cluster, endpoints, cap);
      if (over != null) {
        out.add(new Plan.Hold(EJECTION_CAP, cluster, over, "endpoints of " + cluster
            + " coming back from EJECTED, or a higher maxEjectionPercent, lets ejections through again"));
      }
    });
    return out;
  }

  /**
   * Null when no endpoint of {@code cluster} is ejected or one more could be under {@code cap}; else
   * the refusal the next ejection would get ({@link Lifecycle#ejectionRefusal}, the operator's eject's own rule).
   */
  static String overCap(String cluster, List<EndpointSpec> endpoints, int cap) {
    if (endpoints.stream().noneMatch(e -> e.state() == EndpointState.EJECTED)) {
      return null;
    }
    return endpoints.stream().filter(e -> e.state() != EndpointState.EJECTED).findFirst()
        .map(next -> Lifecycle.ejectionRefusal(cluster, endpoints, EndpointRef.of(cluster, next), cap))
        .map(refusal -> "cluster '" + cluster + "': " + refusal + " (the next ejection would be refused)")
        .orElse(null);
  }
}
