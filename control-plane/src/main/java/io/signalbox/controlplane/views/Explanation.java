package io.signalbox.controlplane.views;

import io.signalbox.controlplane.reconcile.HeldUpdates;
import io.signalbox.controlplane.reconcile.ReconcileStatus;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.source.SourceHealth;
import io.signalbox.store.AuditEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Predicate;

/**
 * Why an endpoint (or every endpoint of a cluster) is in the state it is served in: each cause
 * that holds now — a freeze, a guard holding the cluster, an operator's override, a drain in
 * progress, the endpoint's source — and each recorded transition and operator action from the
 * audit log, newest first. Pure: the caller gathers the facts.
 *
 * @param endpoint {@code address:port}, or null when the whole cluster is explained
 * @param state the endpoint's served state, or null when it is not served (or for a cluster)
 * @param states for a cluster: how many endpoints are served in each state
 */
public record Explanation(String cluster, String endpoint, long epoch, String state, String origin,
    Map<String, Integer> states, List<Cause> causes) {

  /** One reason, dated when it began; {@code at} is null when that is not known (a source's word). */
  public record Cause(Instant at, String kind, String message) {}

  static final String FREEZE = "freeze";
  static final String GUARD = "guard";
  static final String OVERRIDE = "override";
  static final String LIFECYCLE = "lifecycle";
  static final String SOURCE = "source";
  static final String TRANSITION = "transition";
  public static final String ADMISSION = "admission";

  /**
   * What the explanation is made of.
   *
   * @param served the cluster's endpoints as published (empty when none)
   * @param audit the newest audit entries, newest first
   * @param drainingSince the first epoch of an endpoint's current DRAINING run, or null
   * @param epochCreated when an epoch was created, or null when unknown
   */
  public record Facts(long epoch, List<EndpointSpec> served, List<OperatorOverride> overrides,
      List<HeldUpdates.Held> held, ReconcileStatus status, List<AuditEntry> audit,
      Function<EndpointRef, Long> drainingSince, LongFunction<Instant> epochCreated) {}

  /** This explanation with {@code cause} first (a cause of the whole cluster, dated now or unknown). */
  public Explanation withFirst(Cause cause) {
    List<Cause> all = new ArrayList<>();
    all.add(cause);
    all.addAll(causes);
    return new Explanation(cluster, endpoint, epoch, state, origin, states, List.copyOf(all));
  }

  /** @param endpoint the endpoint to explain, or null for the whole cluster */
  public static Explanation of(String cluster, EndpointRef endpoint, Facts facts) {
    Predicate<EndpointRef> concerns = ref -> ref.cluster().equals(cluster) && (endpoint == null || ref.equals(endpoint));
    List<EndpointSpec> served = facts.served().stream()
        .filter(e -> endpoint == null || e.key().equals(endpoint.key())).toList();
    List<Cause> causes = new ArrayList<>();
    freeze(facts, causes);
    // An ejection a source asked for that the freeze of ejections holds back (issue 31).
    facts.status().heldEjections().forEach((ref, why) -> {
      String key = ref.startsWith(cluster + "/") ? ref.substring(cluster.length() + 1) : null;
      if (key != null && key.indexOf('/') < 0 && (endpoint == null || key.equals(endpoint.key()))) {
        causes.add(new Cause(facts.status().ejectionFreeze() == null ? null : facts.status().ejectionFreeze().at(),
            FREEZE, (endpoint == null ? key + ": " : "") + why));
      }
    });
    facts.held().stream().filter(h -> cluster.equals(h.cluster())).forEach(h -> causes.add(new Cause(h.since(), GUARD,
        h.message() + " [" + h.rule() + "]; held until confirmed (signalbox confirm " + cluster + ")")));
    // A held config reload concerns every cluster: each is served as the config in force has it.
    facts.held().stream().filter(h -> h.config() != null).forEach(h -> causes.add(new Cause(h.since(), GUARD,
        h.message() + " [" + h.rule() + "]; held until confirmed (signalbox confirm --config)")));
    Set<String> activeKinds = new LinkedHashSet<>();
    for (OperatorOverride o : facts.overrides()) {
      if (concerns.test(o.endpoint())) {
        causes.add(new Cause(o.createdAt(), OVERRIDE, prefix(endpoint, o.endpoint()) + describe(o)));
        activeKinds.add(o.endpoint() + " " + kind(o));
      }
    }
    for (EndpointSpec e : served) {
      EndpointRef ref = EndpointRef.of(cluster, e);
      Long since = e.state() == EndpointState.DRAINING ? facts.drainingSince().apply(ref) : null;
      if (since != null) {
        causes.add(new Cause(facts.epochCreated().apply(since), LIFECYCLE,
            prefix(endpoint, ref) + "DRAINING since epoch " + since));
      }
    }
    sources(served, facts.status().sources(), causes);
    history(cluster, endpoint, facts.audit(), activeKinds, causes);
    causes.sort(Comparator.comparing(Cause::at, Comparator.nullsLast(Comparator.reverseOrder())));

    Map<String, Integer> states = new TreeMap<>();
    served.forEach(e -> states.merge(e.state().name(), 1, Integer::sum));
    EndpointSpec one = endpoint == null || served.isEmpty() ? null : served.get(0);
    return new Explanation(cluster, endpoint == null ? null : endpoint.key(), facts.epoch(),
        one == null ? null : one.state().name(), one == null ? null : one.origin(), states, List.copyOf(causes));
  }

  private static void freeze(Facts facts, List<Cause> causes) {
    if (!facts.status().frozen()) {
      return;
    }
    AuditEntry frozen = facts.audit().stream().filter(a -> a.action().equals("freeze")).findFirst().orElse(null);
    String by = frozen == null ? "" : " by " + frozen.actor() + reason(frozen.reason());
    causes.add(new Cause(frozen == null ? null : frozen.at(), FREEZE, "frozen" + by
        + ": inputs are validated and recorded, nothing is published"
        + (facts.status().pendingPublish() ? "; a newer configuration waits for unfreeze" : "")));
  }

  /** Each source the served endpoints came from, with its health. */
  private static void sources(List<EndpointSpec> served, Map<String, SourceHealth> health, List<Cause> causes) {
    Set<String> origins = new LinkedHashSet<>();
    served.forEach(e -> origins.add(e.origin()));
    for (String origin : origins) {
      SourceHealth h = health.entrySet().stream().filter(s -> origin.startsWith(s.getKey()))
          .map(Map.Entry::getValue).findFirst().orElse(null);
      causes.add(new Cause(null, SOURCE, "from " + origin + (h == null ? "" : " (" + h + ")")));
    }
  }

  /**
   * Transitions and operator actions from the audit log. An action whose override is still in
   * force is already a cause; the log adds those that ended (an undrain, a drain since undone).
   */
  private static void history(String cluster, EndpointRef endpoint, List<AuditEntry> audit, Set<String> activeKinds,
      List<Cause> causes) {
    String exact = endpoint == null ? null : endpoint.toString();
    for (AuditEntry a : audit) {
      boolean about = exact != null ? a.target().equals(exact) : a.target().startsWith(cluster + "/");
      if (a.action().equals("confirm") && (a.target().equals("cluster " + cluster) || a.target().equals("config"))) {
        causes.add(new Cause(a.at(), GUARD, (a.target().equals("config") ? "held config reload" : "held update")
            + " confirmed by " + a.actor() + reason(a.reason())));
      } else if (about && a.action().equals("transition")) {
        causes.add(new Cause(a.at(), TRANSITION, (endpoint == null ? a.target() + ": " : "") + a.reason()));
      } else if (about && !activeKinds.contains(a.target() + " " + a.action())) {
        causes.add(new Cause(a.at(), OVERRIDE, (endpoint == null ? a.target() + ": " : "") + a.action() + " by "
            + a.actor() + reason(a.reason())));
      }
    }
  }

  private static String kind(OperatorOverride o) {
    if (o instanceof OperatorOverride.Drain) {
      return "drain";
    }
    return o instanceof OperatorOverride.Eject ? "eject" : "weight";
  }

  private static String describe(OperatorOverride o) {
    if (o instanceof OperatorOverride.Drain d) {
      return "drained by " + d.actor() + reason(d.reason()) + "; deadline " + d.deadlineAt();
    }
    if (o instanceof OperatorOverride.Eject j) {
      return "ejected by " + j.actor() + reason(j.reason()) + " until " + j.until() + ", then WARMING for "
          + j.warmup().toSeconds() + "s";
    }
    OperatorOverride.Weight w = (OperatorOverride.Weight) o;
    return "weight " + w.weight() + " set by " + w.actor() + reason(w.reason());
  }

  /** In a cluster's explanation each line names its endpoint. */
  private static String prefix(EndpointRef explained, EndpointRef ref) {
    return explained == null ? ref.key() + ": " : "";
  }

  private static String reason(String reason) {
    return reason == null || reason.isEmpty() ? "" : ": " + reason;
  }
}
