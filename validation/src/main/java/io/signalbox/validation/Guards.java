package io.signalbox.validation;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Guards on one update of a cluster's endpoints, comparing what clients hold with what would be
 * published. Pure: the caller decides what "held" means (keep serving the old endpoints of that
 * cluster until the change is confirmed, or has been stable long enough).
 */
public final class Guards {
  private Guards() {}

  public static final String MASS_REMOVAL = "guard.mass-removal";
  public static final String MIN_ELIGIBLE = "guard.min-eligible";

  /** One cluster whose update should be held, and why. */
  public record Hold(String cluster, String rule, String message) {}

  /**
   * @param intended endpoint keys ({@code cluster/address:port}) an operator changed on purpose;
   *     they do not count as removals
   */
  public static List<Hold> check(Map<String, List<EndpointSpec>> before, Map<String, List<EndpointSpec>> after,
      Function<String, ClusterSpec> clusters, Set<String> intended) {
    List<Hold> holds = new ArrayList<>();
    Set<String> names = new TreeSet<>(before.keySet());
    names.addAll(after.keySet());
    for (String cluster : names) {
      List<EndpointSpec> was = before.getOrDefault(cluster, List.of());
      List<EndpointSpec> will = after.getOrDefault(cluster, List.of());
      ClusterSpec spec = clusters.apply(cluster);
      Map<String, EndpointSpec> next = new HashMap<>();
      will.forEach(e -> next.put(e.key(), e));
      long eligibleBefore = 0;
      long lost = 0;
      for (EndpointSpec e : was) {
        if (!e.state().eligible() || intended.contains(cluster + "/" + e.key())) {
          continue;
        }
        eligibleBefore++;
        EndpointSpec now = next.get(e.key());
        if (now == null || !now.state().eligible()) {
          lost++;
        }
      }
      int pct = spec.effectiveMassRemovalPercent();
      if (removesMoreThan(pct, lost, eligibleBefore)) {
        holds.add(new Hold(cluster, MASS_REMOVAL, "cluster '" + cluster + "': one update takes " + lost + " of "
            + eligibleBefore + " eligible endpoints out (" + (lost * 100 / eligibleBefore)
            + "%), more than massRemovalPercent " + pct));
        continue;
      }
      long hadEligible = was.stream().filter(e -> e.state().eligible()).count();
      long willEligible = will.stream().filter(e -> e.state().eligible()).count();
      int min = spec.effectiveMinEligible();
      if (hadEligible > 0 && willEligible < min) {
        holds.add(new Hold(cluster, MIN_ELIGIBLE, "cluster '" + cluster + "': would have " + willEligible
            + " eligible endpoint(s), fewer than minEligible " + min + " (has " + hadEligible + ")"));
      }
    }
    return holds;
  }

  /**
   * The share rule of every removal guard: {@code removed} of {@code total} is more than
   * {@code percent} per cent of it. Endpoints ({@code massRemovalPercent}) and a config's
   * listeners, route configurations and clusters ({@code configRemovalPercent}) both use it.
   */
  public static boolean removesMoreThan(int percent, long removed, long total) {
    return total > 0 && removed * 100 > (long) percent * total;
  }
}
