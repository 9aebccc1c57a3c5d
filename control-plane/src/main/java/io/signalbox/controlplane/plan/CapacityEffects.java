package io.signalbox.controlplane.plan;

import io.signalbox.controlplane.admission.AdmissionController;
import io.signalbox.controlplane.admission.EligibleCapacity;
import io.signalbox.controlplane.telemetry.DemandWindow;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * What a change does to each cluster's capacity: eligible capacity before and after ({@link
 * EligibleCapacity}, the admission's own sum), the demand the load reports show ({@link
 * DemandWindow}, the admission's own window), the automatic drop admission would decide for the
 * planned endpoints at that demand ({@link AdmissionController#target}, the rule that raises it), and
 * the drains the change would start or cut short. Pure: demand and drops come in as functions.
 */
final class CapacityEffects {

  private CapacityEffects() {}

  /**
   * @param served the endpoints of the served epoch, per cluster
   * @param planned the endpoints the plan would serve
   * @param specs each cluster as the planned config has it
   * @param demand each cluster's demand window now
   * @param dropNow the automatic drop the served epoch carries, in parts per million
   * @return one effect per cluster whose eligible capacity, drains, admission settings or drop
   *     change, in name order
   */
  static List<Plan.CapacityEffect> of(Map<String, List<EndpointSpec>> served, Map<String, List<EndpointSpec>> planned,
      Function<String, ClusterSpec> specs, Function<String, ClusterSpec> servedSpecs,
      Function<String, DemandWindow> demand, ToIntFunction<String> dropNow) {
    TreeSet<String> clusters = new TreeSet<>(served.keySet());
    clusters.addAll(planned.keySet());
    List<Plan.CapacityEffect> out = new ArrayList<>();
    for (String cluster : clusters) {
      List<EndpointSpec> was = served.getOrDefault(cluster, List.of());
      List<EndpointSpec> will = planned.getOrDefault(cluster, List.of());
      ClusterSpec.Admission admission = specs.apply(cluster).admission();
      ClusterSpec.Admission admissionWas = servedSpecs.apply(cluster).admission();
      if (was.equals(will) && Objects.equals(admission, admissionWas)) {
        continue;
      }
      Plan.CapacityEffect e = effect(cluster, was, will, admission, admissionWas, demand.apply(cluster),
          dropNow.applyAsInt(cluster));
      // Endpoints that differ in nothing capacity reads (their weight, their source) change nothing here.
      if (!e.before().equals(e.after()) || !e.drainsStarted().isEmpty() || !e.drainsCutShort().isEmpty()
          || !e.dropNow().equals(e.dropAfter()) || !Objects.equals(admission, admissionWas)) {
        out.add(e);
      }
    }
    return out;
  }

  static Plan.CapacityEffect effect(String cluster, List<EndpointSpec> was, List<EndpointSpec> will,
      ClusterSpec.Admission admission, ClusterSpec.Admission admissionWas, DemandWindow demand, int dropNow) {
    EligibleCapacity before = EligibleCapacity.of(was, admissionWas.defaultCapacityRps());
    EligibleCapacity after = EligibleCapacity.of(will, admission.defaultCapacityRps());
    Double rps = demand.settled() ? demand.rps() : null;
    int dropAfter = dropNow;
    String says;
    if (!admission.enabled()) {
      says = "admission is off for " + cluster + ": nothing is shed automatically";
      dropAfter = 0;
    } else if (after instanceof EligibleCapacity.Unknown u) {
      says = u.reason() + "; never shed automatically";
      dropAfter = 0;
    } else if (rps == null) {
      says = "no load reports cover the demand window of " + cluster + ": the drop stays "
          + AdmissionController.percent(dropNow) + " until they do";
    } else {
      EligibleCapacity.Known known = (EligibleCapacity.Known) after;
      int target = AdmissionController.target(admission.effectiveMaxUtilization() * known.rps(), rps);
      if (target > dropNow) {
        // Raised at once (AdmissionController): the prediction is the drop of the next decision.
        dropAfter = target;
        says = "this would drop about " + AdmissionController.percent(target) + " of " + cluster + "'s calls ("
            + String.format(java.util.Locale.ROOT, "%.1f", rps) + " rps for " + known.rps() + " rps of capacity)";
      } else if (target < dropNow) {
        says = "the drop of " + AdmissionController.percent(dropNow) + " would be lowered in steps toward "
            + AdmissionController.percent(target);
      } else {
        says = dropNow == 0 ? "no calls of " + cluster + " would be dropped" : "the drop stays "
            + AdmissionController.percent(dropNow);
      }
    }
    return new Plan.CapacityEffect(cluster, capacity(before, was), capacity(after, will), rps, AdmissionController.percent(dropNow),
        AdmissionController.percent(dropAfter), says, drainsStarted(was, will), drainsCutShort(was, will));
  }

  private static Plan.Capacity capacity(EligibleCapacity c, List<EndpointSpec> endpoints) {
    if (c instanceof EligibleCapacity.Known k) {
      return new Plan.Capacity(k.endpoints(), k.rps(), null);
    }
    int eligible = (int) endpoints.stream().filter(e -> e.state().eligible()).count();
    return new Plan.Capacity(eligible, null, ((EligibleCapacity.Unknown) c).reason());
  }

  /** Endpoints DRAINING in the plan that are not now: the change would start their drains. */
  static List<String> drainsStarted(List<EndpointSpec> was, List<EndpointSpec> will) {
    Map<String, EndpointState> before = states(was);
    return will.stream().filter(e -> e.state() == EndpointState.DRAINING && before.get(e.key()) != EndpointState.DRAINING)
        .map(EndpointSpec::key).sorted().toList();
  }

  /**
   * Endpoints DRAINING now that the plan serves in another state or not at all: their drains end
   * before they finish (an endpoint that leaves drains first: the writer keeps it DRAINING).
   */
  static List<String> drainsCutShort(List<EndpointSpec> was, List<EndpointSpec> will) {
    Map<String, EndpointState> after = states(will);
    return was.stream().filter(e -> e.state() == EndpointState.DRAINING && after.get(e.key()) != EndpointState.DRAINING)
        .map(e -> e.key() + (after.containsKey(e.key()) ? " -> " + after.get(e.key()) : " removed")).sorted().toList();
  }

  private static Map<String, EndpointState> states(List<EndpointSpec> endpoints) {
    Map<String, EndpointState> out = new java.util.HashMap<>();
    endpoints.forEach(e -> out.put(e.key(), e.state()));
    return out;
  }
}
