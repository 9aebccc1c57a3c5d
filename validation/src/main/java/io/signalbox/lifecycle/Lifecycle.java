package io.signalbox.lifecycle;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The endpoint lifecycle: what each endpoint's state is, given what the sources report, what
 * operators decided, and which endpoints left the sources recently. Pure: time is an argument.
 *
 * <pre>
 *   (source) WARMING ──► READY ◄──► DEGRADED
 *                 ▲        │ drain / source terminating / source removal
 *                 │        ▼
 *   eject ──► EJECTED   DRAINING ──► removed (after every client ACKed it and its deadline passed)
 *                 └─(until)─► WARMING (warmup) ──► source state
 * </pre>
 */
public final class Lifecycle {
  private Lifecycle() {}

  /**
   * An endpoint that left every source: it stays, DRAINING, until {@code removeAfter}, so no client
   * loses it before it stopped sending it new work.
   */
  public record Departure(EndpointRef endpoint, EndpointSpec lastSeen, Instant departedAt, Instant removeAfter) {}

  /**
   * @param endpoints cluster -> endpoints with operator overrides and departures applied
   * @param causes endpoint -> why its state differs from what its source said (for the audit log)
   * @param nextChange when the result changes by itself (an ejection ends, a warmup ends, a departure
   *     is due), or null: the caller rebuilds then
   */
  public record Result(Map<String, List<EndpointSpec>> endpoints, Map<EndpointRef, String> causes, Instant nextChange) {}

  /**
   * A cluster no override and no departure touches keeps its list instance from
   * {@code fromSources}: it is what the sources say, and later stages can tell it is unchanged by
   * identity (so every epoch costs what the overrides and departures touch, not every endpoint).
   * The lists it builds for the other clusters are read-only.
   */
  public static Result apply(Map<String, List<EndpointSpec>> fromSources, List<OperatorOverride> overrides,
      List<Departure> departures, Instant now) {
    Map<EndpointRef, List<OperatorOverride>> byEndpoint = new HashMap<>();
    Set<String> overridden = new TreeSet<>();
    for (OperatorOverride o : overrides) {
      byEndpoint.computeIfAbsent(o.endpoint(), k -> new ArrayList<>()).add(o);
      overridden.add(o.endpoint().cluster());
    }
    Map<String, List<EndpointSpec>> out = new TreeMap<>(fromSources);
    Map<EndpointRef, String> causes = new LinkedHashMap<>();
    Instant[] next = {null};
    for (String cluster : overridden) {
      List<EndpointSpec> list = fromSources.get(cluster);
      if (list == null) {
        continue;
      }
      List<EndpointSpec> result = new ArrayList<>(list.size());
      for (EndpointSpec e : list) {
        EndpointRef ref = EndpointRef.of(cluster, e);
        EndpointSpec applied = e;
        for (OperatorOverride o : byEndpoint.getOrDefault(ref, List.of())) {
          applied = applyOne(applied, o, now, causes, next);
        }
        result.add(applied);
      }
      out.put(cluster, List.copyOf(result));
    }
    Map<String, List<EndpointSpec>> grown = new HashMap<>();
    for (Departure d : departures) {
      if (!now.isBefore(d.removeAfter())) {
        continue;
      }
      String cluster = d.endpoint().cluster();
      List<EndpointSpec> list = grown.containsKey(cluster) ? grown.get(cluster) : out.getOrDefault(cluster, List.of());
      boolean back = list.stream().anyMatch(e -> EndpointRef.of(cluster, e).equals(d.endpoint()));
      if (!back) {
        grown.computeIfAbsent(cluster, c -> new ArrayList<>(out.getOrDefault(c, List.of())))
            .add(d.lastSeen().withState(EndpointState.DRAINING));
        causes.put(d.endpoint(), "removed by its source at " + d.departedAt() + "; draining until " + d.removeAfter());
        next[0] = earliest(next[0], d.removeAfter());
      }
    }
    grown.forEach((cluster, list) -> out.put(cluster, List.copyOf(list)));
    return new Result(out, causes, next[0]);
  }

  private static EndpointSpec applyOne(EndpointSpec e, OperatorOverride o, Instant now,
      Map<EndpointRef, String> causes, Instant[] next) {
    EndpointRef ref = o.endpoint();
    if (o instanceof OperatorOverride.Drain d) {
      causes.put(ref, "drained by " + d.actor() + (d.reason().isEmpty() ? "" : ": " + d.reason()));
      return e.withState(EndpointState.DRAINING);
    }
    if (o instanceof OperatorOverride.Eject j) {
      if (now.isBefore(j.until())) {
        causes.put(ref, "ejected by " + j.actor() + " until " + j.until());
        next[0] = earliest(next[0], j.until());
        return e.withState(EndpointState.EJECTED);
      }
      Instant warm = j.until().plus(j.warmup());
      if (now.isBefore(warm) && e.state() != EndpointState.DRAINING) {
        causes.put(ref, "back from ejection, warming until " + warm);
        next[0] = earliest(next[0], warm);
        return e.withState(EndpointState.WARMING);
      }
      return e;
    }
    OperatorOverride.Weight w = (OperatorOverride.Weight) o;
    causes.putIfAbsent(ref, "weight " + w.weight() + " set by " + w.actor());
    return e.withWeight(w.weight());
  }

  /**
   * How long an ejection lasts for an endpoint ejected {@code previousEjections} times before:
   * doubling from {@code base}, capped at {@code max}, so repeat offenders stay out longer.
   */
  public static Duration ejectionTime(Duration base, int previousEjections, Duration max) {
    Duration d = base;
    for (int i = 0; i < previousEjections && d.compareTo(max) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(max) > 0 ? max : d;
  }

  /**
   * Null when ejecting {@code endpoint} keeps the cluster within {@code maxEjectionPercent};
   * otherwise why not, in one sentence. Like Envoy's outlier detection, one endpoint may always be
   * ejected from a cluster of two or more, whatever the percentage.
   */
  public static String ejectionRefusal(String cluster, List<EndpointSpec> endpoints, EndpointRef endpoint,
      int maxEjectionPercent) {
    int total = endpoints.size();
    long ejected = endpoints.stream()
        .filter(e -> e.state() == EndpointState.EJECTED || EndpointRef.of(cluster, e).equals(endpoint))
        .count();
    long allowed = Math.max(total >= 2 ? 1 : 0, (long) total * maxEjectionPercent / 100);
    if (ejected <= allowed) {
      return null;
    }
    return "ejecting " + endpoint.key() + " would eject " + ejected + " of " + total + " endpoints of cluster '"
        + cluster + "' (" + (ejected * 100 / total) + "%), more than maxEjectionPercent " + maxEjectionPercent;
  }

  private static Instant earliest(Instant a, Instant b) {
    return a == null || b.isBefore(a) ? b : a;
  }

  /** Endpoints present in {@code before} and absent from {@code after}, per cluster. */
  public static List<EndpointRef> removed(Map<String, List<EndpointSpec>> before, Map<String, List<EndpointSpec>> after) {
    List<EndpointRef> gone = new ArrayList<>();
    before.forEach((cluster, list) -> {
      Map<String, EndpointSpec> now = new HashMap<>();
      after.getOrDefault(cluster, List.of()).forEach(e -> now.put(e.key(), e));
      for (EndpointSpec e : list) {
        if (!now.containsKey(e.key())) {
          gone.add(EndpointRef.of(cluster, e));
        }
      }
    });
    return gone;
  }
}
