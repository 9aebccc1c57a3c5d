package io.signalbox.controlplane.admin;

import io.signalbox.controlplane.views.EpochDetail;
import io.signalbox.controlplane.views.Explanation;
import io.signalbox.validation.ClosestNames;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.EndpointSpec;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.StoreUnavailableException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Read-only answers to "why" questions: why an endpoint or a cluster is served as it is, what
 * changed between two epochs, and who the caller is (so the dashboard shows operator controls only
 * to operators).
 */
final class ExplainRoutes {

  /** How much of the audit log an explanation searches for an endpoint's history. */
  static final int AUDIT_ENTRIES = 1000;

  private final AdminBackend backend;
  private final ApiRouter router;

  ExplainRoutes(AdminBackend backend, ApiRouter router) {
    this.backend = backend;
    this.router = router;
  }

  /** Two epochs compared: what {@code to} has that {@code from} had not, and the reverse. */
  record EpochDiff(long from, long to, @JsonUnwrapped EpochDetail.Diff diff) {}

  void register() {
    router.get("/api/v1/whoami", Access.READ, this::whoami);
    router.get("/api/v1/epochs/{epoch}/diff/{other}", Access.READ, this::diff);
    router.get("/api/v1/clusters/{cluster}/why", Access.READ, ctx -> ctx.json(explain(ctx, false)));
    router.get("/api/v1/clusters/{cluster}/endpoints/{endpoint}/why", Access.READ, ctx -> ctx.json(explain(ctx, true)));
  }

  private void whoami(Context ctx) {
    Caller caller = ctx.attribute(ApiRouter.CALLER);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", caller.name());
    body.put("role", caller.role() == null ? null : caller.role().toString());
    // Without tokens the server is open (and bound to loopback): anyone may operate.
    body.put("canOperate", caller.role() == null || Access.OPERATE.allows(caller.role()));
    ctx.json(body);
  }

  private void diff(Context ctx) {
    long from = CoreRoutes.parseLong("epoch", ctx.pathParam("epoch"));
    long to = CoreRoutes.parseLong("other", ctx.pathParam("other"));
    Snapshot a = load(from);
    Snapshot b = load(to);
    ctx.json(new EpochDiff(from, to, EpochDetail.diff(b, a)));
  }

  private Snapshot load(long epoch) {
    return backend.store().load(epoch).map(Snapshot::fromEnvelope).orElseThrow(() ->
        new ApiException(HttpStatus.NOT_FOUND, "unknown_epoch", "no epoch " + epoch));
  }

  private Explanation explain(Context ctx, boolean oneEndpoint) {
    PublishedView view = backend.view().get();
    Snapshot published = view.snapshot();
    if (published == null) {
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "no_epoch", "no epoch has been published yet");
    }
    String cluster = ctx.pathParam("cluster");
    Set<String> clusters = new TreeSet<>(published.resources(XdsType.CLUSTER).byName().keySet());
    clusters.addAll(published.endpoints().keySet());
    if (!clusters.contains(cluster)) {
      throw new ApiException(HttpStatus.NOT_FOUND, "unknown_cluster",
          "no cluster '" + cluster + "'" + ClosestNames.hint(cluster, clusters));
    }
    List<EndpointSpec> served = published.endpoints().getOrDefault(cluster, List.of());
    List<AuditEntry> audit = audit();
    EndpointRef ref = oneEndpoint ? endpoint(ctx, cluster, served, audit) : null;
    Explanation.Facts facts = new Explanation.Facts(published.epoch(), served, view.intent().overrides(),
        view.held(), view.status(), audit, view.drainingSince()::get, this::createdAt);
    Explanation explained = Explanation.of(cluster, ref, facts);
    // The automatic drop (issue 31) concerns every endpoint of the cluster: its calls are shed
    // before any endpoint is picked. The cause is the one the served epoch recorded.
    var automatic = io.signalbox.controlplane.reconcile.AutomaticDrops.inherited(published).byCluster().get(cluster);
    return automatic == null ? explained : explained.withFirst(new Explanation.Cause(createdAt(published.epoch()),
        Explanation.ADMISSION, "clients drop "
        + io.signalbox.validation.DropRules.percent(automatic.perMillion()) + "% of calls as "
        + io.signalbox.controlplane.reconcile.AutomaticDrops.CATEGORY + ": " + automatic.cause()));
  }

  /** The endpoint in the path: served now, or at least once in the audit log's memory. */
  private static EndpointRef endpoint(Context ctx, String cluster, List<EndpointSpec> served, List<AuditEntry> audit) {
    String raw = ctx.pathParam("endpoint");
    EndpointRef ref = EndpointRef.parse(cluster, raw);
    if (ref == null) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_endpoint",
          "expected address:port (IPv6 as [::1]:8080), was '" + raw + "'");
    }
    // Any address of a served endpoint names it, as its own address does (intent is kept under that).
    var servedRef = ref.resolve(served);
    if (servedRef.isPresent()) {
      return servedRef.get();
    }
    if (audit.stream().noneMatch(a -> a.target().equals(ref.toString()))) {
      List<String> known = served.stream().flatMap(e -> e.keys().stream()).toList();
      throw new ApiException(HttpStatus.NOT_FOUND, "unknown_endpoint",
          "cluster '" + cluster + "' has no endpoint " + ref.key() + ClosestNames.hint(ref.key(), known));
    }
    return ref;
  }

  /** The audit log's newest entries; none while the store is down (the present causes still answer). */
  private List<AuditEntry> audit() {
    try {
      return backend.store().auditLog(AUDIT_ENTRIES);
    } catch (StoreUnavailableException e) {
      return List.of();
    }
  }

  private Instant createdAt(long epoch) {
    try {
      return backend.store().epoch(epoch).map(EpochRecord::createdAt).orElse(null);
    } catch (StoreUnavailableException e) {
      return null;
    }
  }
}
