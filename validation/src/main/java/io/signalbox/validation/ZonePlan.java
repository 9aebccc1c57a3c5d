package io.signalbox.validation;

import io.signalbox.model.EndpointSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which of a cluster's endpoints the clients of each zone prefer under {@code zonePreference:
 * SAME_ZONE}: a pure function of the endpoints and the cluster's {@code minEligible}, read by the
 * translation (what each zone's clients are sent) and by {@link #check} (the warning for a zone
 * that gets no preference), so the two never disagree.
 *
 * <p>By hint, else by zone, as kube-proxy does: an endpoint's {@code zoneHints} (EndpointSlice
 * {@code hints.forZones}) say which zones it serves, but only when every eligible endpoint of the
 * cluster has hints; one without (a slice the controller has not hinted yet, a pod from a file)
 * makes the whole cluster go by each endpoint's own {@code zone}, so no zone is left out of a
 * half-hinted cluster.
 *
 * <p>Never starving a zone: a zone whose preferred endpoints have fewer eligible ones (READY or
 * DEGRADED) than {@code minEligible} (at least one) gets {@link TooFew}, and its clients are sent the
 * cluster with no preference at all, as clients without a zone are.
 *
 * @param zones every zone an endpoint names (its zone, or its hints), in name order
 * @param byHints whether the zones were read from the hints
 */
public record ZonePlan(Map<String, Zone> zones, boolean byHints) {

  /**
   * The endpoint filter metadata namespace that says which zones prefer an endpoint, as the
   * translation writes it and a zone's view reads it; clients ignore it.
   */
  public static final String METADATA = "io.signalbox.zone_preference";

  /** The rule id of the warning for a zone left without preference. */
  public static final String RULE_TOO_FEW = "zone-preference.too-few";

  public ZonePlan {
    zones = java.util.Collections.unmodifiableMap(new TreeMap<>(zones));
  }

  /** What one zone's clients get. */
  public sealed interface Zone permits Preferred, TooFew {}

  /**
   * Its endpoints first.
   *
   * @param keys the preferred endpoints' {@code address:port} ({@link EndpointSpec#key()})
   */
  public record Preferred(Set<String> keys) implements Zone {
    public Preferred {
      keys = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(keys));
    }
  }

  /** No preference: too few of its endpoints are eligible. */
  public record TooFew(int eligible, int minEligible) implements Zone {}

  /** The plan of a cluster with these endpoints and this {@code minEligible}. */
  public static ZonePlan of(List<EndpointSpec> endpoints, int minEligible) {
    boolean byHints = !endpoints.isEmpty();
    boolean anyEligible = false;
    for (EndpointSpec e : endpoints) {
      if (e != null && e.state() != null && e.state().eligible()) {
        anyEligible = true;
        byHints &= !e.zoneHints().isEmpty();
      }
    }
    byHints &= anyEligible;
    Map<String, Set<String>> keys = new TreeMap<>();
    Map<String, Integer> eligible = new TreeMap<>();
    for (EndpointSpec e : endpoints) {
      if (e == null) {
        continue;
      }
      for (String zone : zonesOf(e, byHints)) {
        keys.computeIfAbsent(zone, z -> new LinkedHashSet<>()).add(e.key());
        if (e.state() != null && e.state().eligible()) {
          eligible.merge(zone, 1, Integer::sum);
        }
      }
    }
    int required = Math.max(1, minEligible);
    Map<String, Zone> zones = new TreeMap<>();
    keys.forEach((zone, preferred) -> {
      int n = eligible.getOrDefault(zone, 0);
      zones.put(zone, n >= required ? new Preferred(preferred) : new TooFew(n, required));
    });
    return new ZonePlan(zones, byHints);
  }

  /** The zones whose clients prefer {@code e}, in name order; empty for none. */
  public List<String> preferring(EndpointSpec e) {
    List<String> out = new ArrayList<>(1);
    for (String zone : zonesOf(e, byHints)) {
      if (zones.get(zone) instanceof Preferred p && p.keys().contains(e.key())) {
        out.add(zone);
      }
    }
    return out;
  }

  private static List<String> zonesOf(EndpointSpec e, boolean byHints) {
    if (byHints) {
      return e.zoneHints().stream().filter(z -> z != null && !z.isEmpty()).distinct().sorted().toList();
    }
    return e.zone().isEmpty() ? List.of() : List.of(e.zone());
  }

  /**
   * One warning per zone of a {@code SAME_ZONE} cluster whose clients get no preference, naming how
   * many eligible endpoints it has and the minimum it needs.
   */
  static void check(String cluster, List<EndpointSpec> endpoints, int minEligible, Findings f) {
    ZonePlan plan = of(endpoints, minEligible);
    String origin = endpoints.isEmpty() || endpoints.get(0) == null ? "" : endpoints.get(0).origin();
    plan.zones().forEach((zone, z) -> {
      if (z instanceof TooFew few) {
        f.warning(RULE_TOO_FEW, origin, Labels.endpoints(cluster) + " for zone '" + zone + "'",
            "has " + few.eligible() + " eligible endpoint(s) " + (plan.byHints() ? "hinted for the zone" : "in the zone")
                + ", fewer than minEligible " + few.minEligible() + ": clients in zone '" + zone
                + "' get no zone preference");
      }
    });
  }
}
