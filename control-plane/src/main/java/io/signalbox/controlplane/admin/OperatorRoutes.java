package io.signalbox.controlplane.admin;

import io.signalbox.controlplane.telemetry.DrainViews;
import io.signalbox.validation.ClosestNames;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpStatus;
import io.signalbox.controlplane.reconcile.Interventions;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.yaml.StrictYaml;
import io.signalbox.validation.EndpointRules;
import io.signalbox.validation.NameRules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What operators do: look at clusters and endpoints, drain, undrain, eject and re-weight
 * endpoints, follow drains to "safe to remove", roll back, freeze and unfreeze.
 */
final class OperatorRoutes {

  private static final String ENDPOINT_PATH = "/api/v1/clusters/{cluster}/endpoints/{endpoint}";

  private final AdminBackend backend;
  private final ApiRouter router;

  OperatorRoutes(AdminBackend backend, ApiRouter router) {
    this.backend = backend;
    this.router = router;
  }

  // Request bodies, read by ApiRouter's one strict reader: a field's description is what its
  // "bad_<field>" message says it must be; a required one is neither missing nor null.

  record DrainRequest(String reason, @JsonPropertyDescription("a duration like 30s, 5m or 1h") String deadline) {}

  record EjectRequest(String reason) {}

  record WeightRequest(
      @JsonProperty(required = true) @JsonSetter(nulls = Nulls.FAIL)
      @JsonPropertyDescription(EndpointRules.WEIGHT_RANGE) Integer weight,
      String reason) {}

  record RollbackRequest(@JsonPropertyDescription("an epoch number") Long to, String reason) {}

  record ReasonRequest(String reason) {}

  /** One endpoint as operators see it. */
  record EndpointView(String address, int port, String endpoint, String zone, int weight, int priority,
      EndpointState state, String origin, String override, List<String> additionalAddresses) {}

  void register() {
    router.get("/api/v1/clusters", Access.READ, this::clusters);
    router.get("/api/v1/clusters/{cluster}/endpoints", Access.READ, this::endpoints);
    router.get("/api/v1/drains", Access.READ, ctx -> ctx.json(drains()));
    router.get(ENDPOINT_PATH + "/drain", Access.READ, ctx -> {
      EndpointRef ref = endpoint(ctx);
      ctx.json(drains().stream().filter(d -> d.cluster().equals(ref.cluster()) && d.endpoint().equals(ref.key()))
          .findFirst().orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND, "not_draining",
              ref + " is not being drained by an operator")));
    });
    router.write(HandlerType.POST, ENDPOINT_PATH + "/drain", Access.OPERATE, (ctx, caller) -> {
      EndpointRef ref = endpoint(ctx);
      DrainRequest body = orEmpty(router.body(ctx, DrainRequest.class), new DrainRequest(null, null));
      Duration deadline = body.deadline() == null ? drainTimeout(ref.cluster()) : duration("deadline", body.deadline());
      Outcomes.value(interventions().drain(ref, deadline, caller.name(), reason(body.reason())));
      ctx.status(HttpStatus.ACCEPTED).json(Map.of("cluster", ref.cluster(), "endpoint", ref.key(), "state",
          "DRAINING", "deadline", deadline.toString()));
      return new ApiRouter.Audit("drain", ref.toString(), reason(body.reason()));
    });
    router.write(HandlerType.DELETE, ENDPOINT_PATH + "/drain", Access.OPERATE, (ctx, caller) -> {
      EndpointRef ref = endpoint(ctx);
      Outcomes.value(interventions().undrain(ref));
      ctx.json(Map.of("cluster", ref.cluster(), "endpoint", ref.key(), "undrained", true));
      return new ApiRouter.Audit("undrain", ref.toString(), "");
    });
    router.write(HandlerType.POST, ENDPOINT_PATH + "/eject", Access.OPERATE, (ctx, caller) -> {
      EndpointRef ref = endpoint(ctx);
      EjectRequest body = orEmpty(router.body(ctx, EjectRequest.class), new EjectRequest(null));
      int cap = maxEjectionPercent(ref.cluster());
      Duration out = Outcomes.value(interventions().eject(ref, cap, caller.name(), reason(body.reason())));
      Map<String, Object> answer = new LinkedHashMap<>(Map.of("cluster", ref.cluster(), "endpoint", ref.key(),
          "state", "EJECTED", "for", out.toString()));
      var ejectionFreeze = backend.view().get().intent().ejectionFreeze();
      if (ejectionFreeze != null) {
        // The freeze holds what policies ask for, not an operator's decision: say it is on.
        answer.put("note", "ejections are frozen (by " + ejectionFreeze.actor() + "); an operator's eject still applies");
      }
      ctx.status(HttpStatus.ACCEPTED).json(answer);
      return new ApiRouter.Audit("eject", ref.toString(), reason(body.reason()) + " (for " + out + ")");
    });
    router.write(HandlerType.PUT, ENDPOINT_PATH + "/weight", Access.OPERATE, (ctx, caller) -> {
      EndpointRef ref = endpoint(ctx);
      WeightRequest body = router.requiredBody(ctx, WeightRequest.class);
      if (body == null || body.weight() == null) {
        throw new ApiException(HttpStatus.BAD_REQUEST, "bad_weight", "weight is required: " + EndpointRules.WEIGHT_RANGE);
      }
      EndpointRules.weightProblem(body.weight()).ifPresent(problem -> {
        throw new ApiException(HttpStatus.BAD_REQUEST, "bad_weight", problem);
      });
      Outcomes.value(interventions().weight(ref, body.weight(), caller.name(), reason(body.reason())));
      ctx.status(HttpStatus.ACCEPTED).json(Map.of("cluster", ref.cluster(), "endpoint", ref.key(), "weight",
          body.weight()));
      return new ApiRouter.Audit("weight", ref.toString(), "weight " + body.weight() + " " + reason(body.reason()));
    });
    router.get("/api/v1/held", Access.READ, ctx -> ctx.json(backend.view().get().held()));
    router.write(HandlerType.POST, "/api/v1/clusters/{cluster}/confirm", Access.OPERATE, (ctx, caller) -> {
      String cluster = cluster(ctx);
      ReasonRequest body = orEmpty(router.body(ctx, ReasonRequest.class), new ReasonRequest(null));
      String fingerprint = backend.view().get().heldFingerprints().get(cluster);
      Outcomes.value(interventions().confirm(cluster, fingerprint, caller.name()));
      ctx.status(HttpStatus.ACCEPTED).json(Map.of("cluster", cluster, "confirmed", true));
      return new ApiRouter.Audit("confirm", "cluster " + cluster, reason(body.reason()));
    });
    // A held config reload (a guard's hold of the whole config, not of one cluster): its own route,
    // so no cluster name is ever mistaken for it.
    router.write(HandlerType.POST, "/api/v1/config/confirm", Access.OPERATE, (ctx, caller) -> {
      ReasonRequest body = orEmpty(router.body(ctx, ReasonRequest.class), new ReasonRequest(null));
      String key = Reconciler.confirmConfigKey();
      String fingerprint = backend.view().get().heldFingerprints().get(key);
      if (fingerprint == null) {
        throw new ApiException(HttpStatus.NOT_FOUND, "nothing_held", "no config reload is held");
      }
      Outcomes.value(interventions().confirm(key, fingerprint, caller.name()));
      ctx.status(HttpStatus.ACCEPTED).json(Map.of("config", true, "confirmed", true));
      return new ApiRouter.Audit("confirm", "config", reason(body.reason()));
    });
    router.write(HandlerType.POST, "/api/v1/rollback", Access.OPERATE, (ctx, caller) -> {
      RollbackRequest body = orEmpty(router.body(ctx, RollbackRequest.class), new RollbackRequest(null, null));
      if (body.to() != null && body.to() < 1) {
        throw new ApiException(HttpStatus.BAD_REQUEST, "bad_to", "to must be an epoch number, was " + body.to());
      }
      Map.Entry<Long, Integer> done = Outcomes.value(interventions().rollbackTo(body.to(), caller.name(),
          reason(body.reason())));
      long to = done.getKey();
      ctx.status(HttpStatus.ACCEPTED).json(Map.of("to", to, "restored", done.getValue()));
      return new ApiRouter.Audit("rollback", "epoch " + to, reason(body.reason()));
    });
    router.write(HandlerType.POST, "/api/v1/freeze", Access.OPERATE, (ctx, caller) -> {
      ReasonRequest body = orEmpty(router.body(ctx, ReasonRequest.class), new ReasonRequest(null));
      Outcomes.value(interventions().freeze(caller.name(), reason(body.reason())));
      ctx.json(Map.of("frozen", true));
      return new ApiRouter.Audit("freeze", "epochs", reason(body.reason()));
    });
    router.write(HandlerType.POST, "/api/v1/unfreeze", Access.OPERATE, (ctx, caller) -> {
      ReasonRequest body = orEmpty(router.body(ctx, ReasonRequest.class), new ReasonRequest(null));
      Outcomes.value(interventions().unfreeze(caller.name()));
      ctx.json(Map.of("frozen", false));
      return new ApiRouter.Audit("unfreeze", "epochs", reason(body.reason()));
    });
  }

  private Interventions interventions() {
    return backend.interventions();
  }

  private Snapshot published() {
    return ClusterPath.published(backend);
  }

  private void clusters(Context ctx) {
    Snapshot s = published();
    List<Map<String, Object>> out = new ArrayList<>();
    for (String name : s.resources(XdsType.CLUSTER).byName().keySet()) {
      List<EndpointSpec> eps = s.endpoints().getOrDefault(name, List.of());
      Map<String, Long> byState = new TreeMap<>();
      eps.forEach(e -> byState.merge(e.state().name(), 1L, Long::sum));
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("name", name);
      c.put("endpoints", eps.size());
      c.put("eligible", eps.stream().filter(e -> e.state().eligible()).count());
      c.put("states", byState);
      out.add(c);
    }
    ctx.json(out);
  }

  private void endpoints(Context ctx) {
    String cluster = cluster(ctx);
    Map<EndpointRef, String> overrides = new java.util.HashMap<>();
    for (OperatorOverride o : backend.view().get().intent().overrides()) {
      overrides.merge(o.endpoint(), describe(o), (a, b) -> a + ", " + b);
    }
    ctx.json(published().endpoints().getOrDefault(cluster, List.of()).stream().map(e -> {
      EndpointRef ref = EndpointRef.of(cluster, e);
      return new EndpointView(e.address(), e.port(), ref.key(), e.zone(), e.weight(), e.priority(), e.state(),
          e.origin(), overrides.get(ref), e.additionalAddresses());
    }).toList());
  }

  private static String describe(OperatorOverride o) {
    if (o instanceof OperatorOverride.Drain) {
      return "drained by " + o.actor();
    }
    if (o instanceof OperatorOverride.Eject j) {
      return "ejected by " + o.actor() + " until " + j.until();
    }
    return "weight " + ((OperatorOverride.Weight) o).weight() + " by " + o.actor();
  }

  private List<DrainViews.DrainView> drains() {
    Instant now = backend.clock().instant();
    PublishedView view = backend.view().get();
    List<DrainViews.DrainView> out = new ArrayList<>();
    for (OperatorOverride o : view.intent().overrides()) {
      if (o instanceof OperatorOverride.Drain d) {
        EndpointRef ref = d.endpoint();
        out.add(DrainViews.of(d, view.drainingSince().get(ref), backend.xds().holders(XdsType.ENDPOINT, ref.cluster()),
            backend.drainLoads(), now));
      }
    }
    return out;
  }

  /** The cluster named in the path ({@link ClusterPath}), among the served clusters. */
  private String cluster(Context ctx) {
    return ClusterPath.of(ctx, backend, s -> s.resources(XdsType.CLUSTER).byName().keySet(), "");
  }

  /**
   * The endpoint named in the path, by any of its addresses, as its own address names it (what
   * intent is stored under); 400 when malformed (as the registry's), 404 with the closest when unknown.
   */
  private EndpointRef endpoint(Context ctx) {
    String cluster = cluster(ctx);
    NameRules.EndpointKey key = NameRules.endpoint(ctx.pathParam("endpoint"));
    if (key instanceof NameRules.Refused bad) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_" + bad.part(), bad.message());
    }
    NameRules.Endpoint at = (NameRules.Endpoint) key;
    EndpointRef named = new EndpointRef(cluster, at.address(), at.port());
    List<EndpointSpec> served = published().endpoints().getOrDefault(cluster, List.of());
    return named.resolve(served).orElseThrow(() -> {
      List<String> known = served.stream().flatMap(e -> e.keys().stream()).toList();
      return new ApiException(HttpStatus.NOT_FOUND, "unknown_endpoint",
          "cluster '" + cluster + "' has no endpoint " + named.key() + ClosestNames.hint(named.key(), known));
    });
  }

  private Duration drainTimeout(String cluster) {
    return backend.view().get().clusters().apply(cluster).effectiveDrainTimeout();
  }

  private int maxEjectionPercent(String cluster) {
    return backend.view().get().clusters().apply(cluster).effectiveMaxEjectionPercent();
  }

  /**
   * A duration written exactly (no spaces); zero is fine (a drain whose deadline has passed already:
   * safe to remove once every client ACKed it). One code, {@code bad_<field>}, whatever is wrong.
   */
  private static Duration duration(String field, String raw) {
    Duration d = raw.strip().equals(raw) ? StrictYaml.parseDuration(raw).orElse(null) : null;
    if (d == null || d.isNegative()) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_" + field,
          field + " must be a duration like 30s, 5m or 1h, was '" + raw + "'");
    }
    return d;
  }

  private static String reason(String reason) {
    return reason == null ? "" : reason;
  }

  private static <T> T orEmpty(T body, T empty) {
    return body == null ? empty : body;
  }
}
