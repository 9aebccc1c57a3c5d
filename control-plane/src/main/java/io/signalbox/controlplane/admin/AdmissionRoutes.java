package io.signalbox.controlplane.admin;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpStatus;
import io.signalbox.controlplane.reconcile.Interventions;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.store.StoredIntent;
import io.signalbox.validation.DropRules;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operator's admission actions (issue 31, "shed instead of cascade"): shed a share of a
 * cluster's calls (EDS {@code drop_overloads}), lift it, and freeze or unfreeze ejections. Each is
 * durable intent, audited and logged like {@code freeze}.
 */
final class AdmissionRoutes {

  private static final String SHED_PATH = "/api/v1/clusters/{cluster}/shed";

  private final AdminBackend backend;
  private final ApiRouter router;

  AdmissionRoutes(AdminBackend backend, ApiRouter router) {
    this.backend = backend;
    this.router = router;
  }

  record ShedRequest(@JsonPropertyDescription(DropRules.PERCENT_RANGE) BigDecimal percent, String category,
      Boolean force, String reason) {}

  record ReasonRequest(String reason) {}

  /** One drop as the API shows it: the share as a percentage, as the operator typed it. */
  record DropView(String cluster, String category, String percent, String actor, String reason, String since) {
    static DropView of(StoredIntent.Drop d) {
      return new DropView(d.cluster(), d.category(), DropRules.percent(d.perMillion()), d.actor(), d.reason(),
          d.at().toString());
    }
  }

  /** An automatic drop the published epoch carries, with its cause (eligible capacity, demand, the drop). */
  record AutomaticDropView(String cluster, String category, String percent, String cause) {
    static List<AutomaticDropView> of(io.signalbox.controlplane.snapshot.Snapshot epoch) {
      return io.signalbox.controlplane.reconcile.AutomaticDrops.inherited(epoch).byCluster().entrySet().stream()
          .map(e -> new AutomaticDropView(e.getKey(), io.signalbox.controlplane.reconcile.AutomaticDrops.CATEGORY,
              DropRules.percent(e.getValue().perMillion()), e.getValue().cause()))
          .sorted(java.util.Comparator.comparing(AutomaticDropView::cluster))
          .toList();
    }
  }

  void register() {
    router.write(HandlerType.POST, SHED_PATH, Access.OPERATE, (ctx, caller) -> {
      String cluster = cluster(ctx);
      ShedRequest body = router.requiredBody(ctx, ShedRequest.class);
      String category = body == null || body.category() == null ? DropRules.DEFAULT_CATEGORY : body.category();
      String problem = DropRules.categoryProblem(category);
      if (problem != null) {
        throw new ApiException(HttpStatus.BAD_REQUEST, "bad_category", problem);
      }
      DropRules.Verdict verdict = DropRules.share(cluster, body == null ? null : body.percent(),
          body != null && Boolean.TRUE.equals(body.force()));
      if (verdict instanceof DropRules.Refused refused) {
        throw new ApiException(HttpStatus.BAD_REQUEST, refused.code(), refused.message());
      }
      int perMillion = ((DropRules.Accepted) verdict).perMillion();
      String reason = reason(body.reason());
      List<StoredIntent.Drop> drops = Outcomes.value(interventions().shed(cluster, category, perMillion,
          caller.name(), reason));
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("cluster", cluster);
      answer.put("category", category);
      answer.put("percent", DropRules.percent(perMillion));
      answer.put("drops", drops.stream().map(DropView::of).toList());
      if (drops.size() > 1) {
        answer.put("note", envoyNote(drops));
      }
      ctx.status(HttpStatus.ACCEPTED).json(answer);
      return new ApiRouter.Audit("shed", "cluster " + cluster,
          DropRules.percent(perMillion) + "% as " + category + (reason.isEmpty() ? "" : ": " + reason));
    });
    // A write takes no query and a DELETE no body (ApiRouter): one category is named in the path.
    router.write(HandlerType.DELETE, SHED_PATH, Access.OPERATE, (ctx, caller) -> unshed(ctx, caller, null));
    router.write(HandlerType.DELETE, SHED_PATH + "/{category}", Access.OPERATE,
        (ctx, caller) -> unshed(ctx, caller, ctx.pathParam("category")));
    router.write(HandlerType.POST, "/api/v1/freeze-ejections", Access.OPERATE, (ctx, caller) -> {
      ReasonRequest body = router.body(ctx, ReasonRequest.class);
      String reason = reason(body == null ? null : body.reason());
      Outcomes.value(interventions().freezeEjections(caller.name(), reason));
      ctx.json(Map.of("ejectionsFrozen", true));
      return new ApiRouter.Audit("freeze-ejections", "ejections", reason);
    });
    router.write(HandlerType.POST, "/api/v1/unfreeze-ejections", Access.OPERATE, (ctx, caller) -> {
      ReasonRequest body = router.body(ctx, ReasonRequest.class);
      String reason = reason(body == null ? null : body.reason());
      boolean was = Outcomes.value(interventions().unfreezeEjections(caller.name(), reason));
      ctx.json(Map.of("ejectionsFrozen", false, "wasFrozen", was));
      return new ApiRouter.Audit("unfreeze-ejections", "ejections", reason);
    });
  }

  private ApiRouter.Audit unshed(Context ctx, Caller caller, String category) {
    String cluster = cluster(ctx);
    int lifted = Outcomes.value(interventions().unshed(cluster, category, caller.name(), ""));
    ctx.json(Map.of("cluster", cluster, "lifted", lifted));
    return new ApiRouter.Audit("unshed", "cluster " + cluster, category == null ? "" : "category " + category);
  }

  /**
   * Envoy honours one drop category (it refuses an assignment with more), so its clients are sent
   * the largest alone (xds/AssignmentVariants): said where the operator sees it, since the share
   * Envoy applies then differs from the gRPC clients'. Picks as {@code DropRules.largest} does: the
   * first of equal shares.
   */
  static String envoyNote(List<StoredIntent.Drop> drops) {
    StoredIntent.Drop larger = drops.stream().max(java.util.Comparator.comparingInt(StoredIntent.Drop::perMillion))
        .orElseThrow();
    return "gRPC clients apply all " + drops.size() + " categories in order; Envoy honours one, so Envoy clients "
        + "are sent the larger alone (" + DropRules.percent(larger.perMillion()) + "% as " + larger.category()
        + ") (docs/traffic-policy.md, \"Dropping calls\")";
  }

  private Interventions interventions() {
    return backend.interventions();
  }

  /** The cluster named in the path ({@link ClusterPath}), among those with an EDS assignment. */
  private String cluster(Context ctx) {
    // A drop travels in the cluster's EDS assignment: a cluster without one could not carry it.
    return ClusterPath.of(ctx, backend, s -> s.resources(XdsType.ENDPOINT).byName().keySet(), " with EDS endpoints");
  }

  private static String reason(String reason) {
    return reason == null ? "" : reason;
  }
}
