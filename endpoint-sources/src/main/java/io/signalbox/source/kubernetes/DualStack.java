package io.signalbox.source.kubernetes;

import io.signalbox.model.EndpointSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * One endpoint per pod in a dual-stack Service. Kubernetes keeps one EndpointSlice per address
 * family, so a pod appears once in the IPv4 slice and once in the IPv6 one: two endpoints meant two
 * weights, two places on a hash ring, twice the pod's share of round robin and a drain that had to
 * name both. Entries of one cluster on the same port are one backend when they name the same
 * {@code targetRef} (the Pod), or, without one, the same {@code hostname}; they become one endpoint
 * whose address is the IPv4 one (the lowest family, then the lowest address) and whose {@code
 * additionalAddresses} are the others (gRFC A61). Entries with neither stay apart: nothing says they
 * are one backend.
 */
final class DualStack {

  private DualStack() {}

  /**
   * @param endpoints one cluster's endpoints, one per address
   * @param eligibility higher is more eligible; a merged endpoint takes its most eligible entry's state
   * @return the same list when nothing merges, else the merged endpoints in the order of their first entry
   */
  static List<EndpointSpec> merge(List<EndpointSpec> endpoints, ToIntFunction<EndpointSpec> eligibility) {
    Map<String, List<EndpointSpec>> groups = new LinkedHashMap<>();
    boolean any = false;
    for (int i = 0; i < endpoints.size(); i++) {
      EndpointSpec e = endpoints.get(i);
      String identity = !e.targetRef().isEmpty() ? "ref " + e.targetRef()
          : !e.hostname().isEmpty() ? "host " + e.hostname() : "alone " + i;
      List<EndpointSpec> group = groups.computeIfAbsent(identity + " port " + e.port(), k -> new ArrayList<>(2));
      group.add(e);
      any |= group.size() > 1;
    }
    if (!any) {
      return endpoints;
    }
    List<EndpointSpec> out = new ArrayList<>(groups.size());
    for (List<EndpointSpec> group : groups.values()) {
      if (group.size() == 1) {
        out.add(group.get(0));
        continue;
      }
      group.sort(Comparator.comparingInt((EndpointSpec e) -> e.address().indexOf(':') >= 0 ? 1 : 0)
          .thenComparing(EndpointSpec::address));
      EndpointSpec primary = group.get(0);
      EndpointSpec best = primary;
      List<String> others = new ArrayList<>(group.size() - 1);
      for (EndpointSpec e : group.subList(1, group.size())) {
        if (!e.address().equals(primary.address()) && !others.contains(e.address())) {
          others.add(e.address());
        }
        if (eligibility.applyAsInt(e) > eligibility.applyAsInt(best)) {
          best = e;
        }
      }
      out.add(primary.withState(best.state()).withAdditionalAddresses(others));
    }
    return out;
  }
}
