package io.signalbox.lifecycle;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The freeze of ejections ({@code signalbox freeze-ejections}): while it holds, no endpoint that
 * clients are served in another state becomes EJECTED because a policy or outlier system said so
 * (through its source). During an incident such ejections tend to cascade: each one moves load to
 * the survivors, which then fail and are ejected in turn. An operator's own {@code eject} still
 * applies — it is a decision made with the freeze in view. Pure: the caller says what is served.
 */
public final class EjectionHold {

  private EjectionHold() {}

  /**
   * @param endpoints per cluster, with the would-be ejections served as they are now
   * @param held each held ejection and why it is held
   */
  public record Result(Map<String, List<EndpointSpec>> endpoints, Map<EndpointRef, String> held) {}

  /**
   * @param endpoints per cluster, as the lifecycle would serve them
   * @param published per cluster, as clients are served now
   * @param overrides the operator's overrides: an active ejection among them is never held
   * @param why what the freeze is, for the message ("ejections frozen by alice: incident 12")
   */
  public static Result apply(Map<String, List<EndpointSpec>> endpoints, Map<String, List<EndpointSpec>> published,
      List<OperatorOverride> overrides, String why, Instant now) {
    Set<EndpointRef> operatorEjected = new HashSet<>();
    for (OperatorOverride o : overrides) {
      if (o instanceof OperatorOverride.Eject j && now.isBefore(j.until())) {
        operatorEjected.add(j.endpoint());
      }
    }
    Map<String, List<EndpointSpec>> out = null;
    Map<EndpointRef, String> held = new LinkedHashMap<>();
    for (Map.Entry<String, List<EndpointSpec>> cluster : endpoints.entrySet()) {
      List<EndpointSpec> served = published.get(cluster.getKey());
      if (served == null || cluster.getValue().stream().noneMatch(e -> e.state() == EndpointState.EJECTED)) {
        continue;
      }
      Map<String, EndpointSpec> before = new HashMap<>();
      served.forEach(e -> before.put(e.key(), e));
      List<EndpointSpec> list = new java.util.ArrayList<>(cluster.getValue().size());
      boolean changed = false;
      for (EndpointSpec e : cluster.getValue()) {
        EndpointRef ref = EndpointRef.of(cluster.getKey(), e);
        EndpointSpec was = before.get(e.key());
        if (e.state() == EndpointState.EJECTED && was != null && was.state() != EndpointState.EJECTED
            && !operatorEjected.contains(ref)) {
          held.put(ref, "ejection held: " + why + "; served " + was.state() + " until 'signalbox unfreeze-ejections'");
          list.add(e.withState(was.state()));
          changed = true;
        } else {
          list.add(e);
        }
      }
      if (changed) {
        if (out == null) {
          out = new TreeMap<>(endpoints);
        }
        out.put(cluster.getKey(), List.copyOf(list));
      }
    }
    return new Result(out == null ? endpoints : out, held);
  }
}
