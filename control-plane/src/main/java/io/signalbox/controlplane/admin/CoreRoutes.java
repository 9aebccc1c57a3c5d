package io.signalbox.controlplane.admin;

import io.signalbox.controlplane.telemetry.LoadView;
import io.signalbox.controlplane.fleet.Fleet;
import io.signalbox.controlplane.fleet.FleetMetrics;
import io.signalbox.controlplane.views.EpochDetail;
import io.signalbox.controlplane.views.Holds;
import io.signalbox.controlplane.views.InputDifferences;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpStatus;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.controlplane.reconcile.ReconcileStatus;
import io.signalbox.controlplane.replica.ReplicaStatus;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.StoreUnavailableException;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The admin API's own routes: health, metrics, status, clients, epochs, rejections, audit and
 * reload. Field names of status, epochs and clients are a public contract (DESIGN §6).
 */
final class CoreRoutes {

  /** How many epochs are read to date the clients' lag; older lag is reported as a lower bound. */
  private static final int EPOCH_TIMES = 1000;
  private static final int NACKS_IN_SUMMARY = 50;

  private final AdminBackend backend;
  private final FleetMetrics fleetMetrics;
  private final ApiRouter router;
  /** Brings the other scrape-time series up to date (the load reports'). */
  private final Runnable beforeScrape;
  private final io.signalbox.controlplane.xds.ClientWarnings clientWarnings =
      new io.signalbox.controlplane.xds.ClientWarnings();

  CoreRoutes(AdminBackend backend, FleetMetrics fleetMetrics, ApiRouter router, Runnable beforeScrape) {
    this.backend = backend;
    this.fleetMetrics = fleetMetrics;
    this.router = router;
    this.beforeScrape = beforeScrape;
  }

  /** A reload's optional body. */
  record ReloadRequest(String reason) {}

  void register() {
    router.get("/", Access.PUBLIC, DashboardFiles::index);
    router.get("/dashboard/{file}", Access.PUBLIC, DashboardFiles::file);
    router.get("/healthz", Access.PUBLIC, ctx -> ctx.json(Map.of("status", "ok")));
    router.get("/readyz", Access.PUBLIC, this::ready);
    router.get("/metrics", Access.METRICS, ctx -> {
      fleetMetrics.refresh();
      beforeScrape.run();
      ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(backend.meters().scrape());
    });
    router.get("/api/v1/status", Access.READ, this::status);
    router.get("/api/v1/clients", Access.READ, this::clients);
    router.get("/api/v1/clients/summary", Access.READ, this::summary);
    new ClientConfigRoutes(backend, router).register();
    router.get("/api/v1/replicas", Access.READ, ctx -> ctx.json(backend.replica().get().replicas()));
    router.get("/api/v1/epochs", Access.READ, ctx -> {
      int limit = intParam(ctx, "limit", 50, 1, 1000);
      long before = longParam(ctx, "before", Long.MAX_VALUE);
      ctx.json(backend.store().epochs(limit, before));
    });
    router.get("/api/v1/epochs/{epoch}", Access.READ, ctx -> {
      long epoch = parseLong("epoch", ctx.pathParam("epoch"));
      EpochRecord record = backend.store().epoch(epoch).orElseThrow(() ->
          new ApiException(HttpStatus.NOT_FOUND, "unknown_epoch", "no epoch " + epoch));
      Snapshot snapshot = backend.store().load(epoch).map(Snapshot::fromEnvelope).orElse(null);
      Snapshot parent = record.parentEpoch() <= 0 ? null
          : backend.store().load(record.parentEpoch()).map(Snapshot::fromEnvelope).orElse(null);
      ctx.json(EpochDetail.of(record, snapshot, parent, backend.xds().clients()));
    });
    router.get("/api/v1/rejections", Access.READ,
        ctx -> ctx.json(backend.store().rejections(intParam(ctx, "limit", 50, 1, 1000))));
    router.get("/api/v1/audit", Access.READ,
        ctx -> ctx.json(backend.store().auditLog(intParam(ctx, "limit", 50, 1, 1000))));
    router.write(HandlerType.POST, "/api/v1/reload", Access.OPERATE, (ctx, caller) -> {
      ReloadRequest request = router.body(ctx, ReloadRequest.class);
      String reason = request == null || request.reason() == null ? "" : request.reason();
      backend.reload().run();
      ctx.status(HttpStatus.ACCEPTED).json(Map.of("reloading", true));
      return new ApiRouter.Audit("reload", "config", reason);
    });
  }

  private void ready(Context ctx) {
    ReconcileStatus s = backend.view().get().status();
    ReplicaStatus replica = backend.replica().get();
    // A follower serving an older epoch than the leader committed is not ready: a client that
    // switched to it must never get old state as current.
    boolean ready = s.ready() && replica.caughtUp();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("ready", ready);
    body.put("epoch", s.epoch());
    body.put("storeAvailable", s.storeAvailable());
    body.put("intentUnreadable", s.intentUnreadable());
    body.put("caughtUp", replica.caughtUp());
    ctx.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json(body);
  }

  private void status(Context ctx) {
    PublishedView view = backend.view().get();
    ReconcileStatus s = view.status();
    Snapshot current = backend.xds().current();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("epoch", s.epoch());
    body.put("lastSafeEpoch", s.lastSafeEpoch());
    body.put("frozen", s.frozen());
    body.put("freeze", s.freeze());
    body.put("storeAvailable", s.storeAvailable());
    body.put("intentUnreadable", s.intentUnreadable());
    body.put("pendingPublish", s.pendingPublish());
    body.put("epochCreatedAt", current == null ? null : current.createdAt());
    body.put("clients", backend.xds().clients().size());
    body.put("lastRejection", s.lastRejection());
    body.put("sources", s.sources());
    body.put("sourceProblems", s.sourceProblems());
    body.put("resourceSerializations", view.serializations());
    body.put("held", view.held());
    // Every hold (freeze, guard, config, drain, ejection) with what releases it, in the words the CLI prints.
    body.put("holds", Holds.of(view));
    // Where the served configuration is not what the inputs say (a rollback, the freeze, a held config).
    body.put("servedDiffers", InputDifferences.of(view));
    // Admission (issue 31): the operator's drops and the freeze of ejections, with what it holds.
    body.put("drops", view.intent().drops().stream().map(AdmissionRoutes.DropView::of).toList());
    // The automatic drops the served epoch carries, from its provenance: the same on every replica.
    body.put("automaticDrops", AdmissionRoutes.AutomaticDropView.of(view.snapshot()));
    body.put("ejectionsFrozen", s.ejectionFreeze() != null);
    body.put("ejectionFreeze", s.ejectionFreeze());
    body.put("heldEjections", s.heldEjections());
    body.put("pendingRestart", backend.pendingRestart().get());
    body.put("lastSafeByGroup", view.lastSafeByGroup());
    ReplicaStatus replica = backend.replica().get();
    body.put("replicaId", replica.replicaId());
    body.put("role", replica.role());
    body.put("leaderId", replica.leaderId());
    body.put("term", replica.term());
    // What connected clients will NACK or ignore of what is served, before the first NACK (issue 33).
    var kinds = io.signalbox.controlplane.xds.ClientWarnings.count(backend.xds().clients(), backend.xds().clientKinds());
    body.put("clientKinds", io.signalbox.controlplane.xds.ClientWarnings.byLabel(kinds));
    body.put("clientWarnings", clientWarnings.of(current, kinds).stream().map(Object::toString).toList());
    // What the clients' load reports raise (issue 30): most localities of a cluster erring at once.
    body.put("correlatedErrors", LoadView.correlatedErrorsOf(backend.load(), backend.clock().instant()));
    body.put("loadReporting", LoadRoutes.reportingClusters(backend));
    ctx.json(body);
  }

  /**
   * Every client, most behind first; {@code group}, {@code q} (substring of node id, group, zone or
   * user agent) and {@code limit} narrow it, {@code X-Total-Count} says how many matched.
   */
  private void clients(Context ctx) {
    int limit = intParam(ctx, "limit", Integer.MAX_VALUE, 1, Integer.MAX_VALUE);
    String group = ctx.queryParam("group");
    String q = ctx.queryParam("q");
    String needle = q == null ? "" : q.strip().toLowerCase(Locale.ROOT);
    List<Fleet.ClientView> matching = views().stream()
        .filter(v -> group == null || group.equals(v.group()))
        .filter(v -> needle.isEmpty() || matches(v, needle))
        .sorted(Fleet.WORST_FIRST)
        .toList();
    ctx.header("X-Total-Count", Integer.toString(matching.size()));
    ctx.json(matching.subList(0, Math.min(limit, matching.size())));
  }

  private static boolean matches(Fleet.ClientView v, String needle) {
    var c = v.client();
    return contains(c.nodeId(), needle) || contains(v.group(), needle) || contains(c.zone(), needle)
        || contains(c.userAgent(), needle);
  }

  private static boolean contains(String value, String needle) {
    return value != null && value.toLowerCase(Locale.ROOT).contains(needle);
  }

  private void summary(Context ctx) {
    Snapshot current = backend.xds().current();
    long epoch = current == null ? 0 : current.epoch();
    ctx.json(Fleet.summarize(views(), epoch, current == null ? null : current.createdAt(), NACKS_IN_SUMMARY));
  }

  private List<Fleet.ClientView> views() {
    Snapshot current = backend.xds().current();
    long epoch = current == null ? 0 : current.epoch();
    NavigableMap<Long, Instant> createdAt = epochTimes(current);
    Instant now = backend.clock().instant();
    String self = backend.replica().get().replicaId();
    return backend.xds().clients().stream()
        .map(c -> Fleet.view(servedBy(c, self), epoch, createdAt, now))
        .sorted(Comparator.comparing(v -> v.client().nodeId()))
        .toList();
  }

  /**
   * The client with the replica that serves it named: this process's own streams carry no replica
   * id (a standalone server's never do), and the list said {@code "replicaId": ""} where status
   * named the replica (issue 42).
   */
  private static ClientStatus servedBy(ClientStatus c, String self) {
    return !c.replicaId().isEmpty() ? c : new ClientStatus(c.nodeId(), c.nodeCluster(), c.zone(), c.userAgent(),
        c.region(), c.streamId(), c.delta(), c.connectedAt(), c.wave(), c.epoch(), c.lastConvergence(), c.types(), self);
  }

  /** Creation times of recent epochs; without the store, the current snapshot's alone. */
  private NavigableMap<Long, Instant> epochTimes(Snapshot current) {
    NavigableMap<Long, Instant> times = new TreeMap<>();
    try {
      for (EpochRecord r : backend.store().epochs(EPOCH_TIMES, Long.MAX_VALUE)) {
        times.put(r.epoch(), r.createdAt());
      }
    } catch (StoreUnavailableException e) {
      // Lag in seconds degrades to a lower bound; the clients' table must still render.
    }
    if (current != null) {
      times.putIfAbsent(current.epoch(), current.createdAt());
    }
    return times;
  }

  static int intParam(Context ctx, String name, int fallback, int min, int max) {
    String raw = ctx.queryParam(name);
    if (raw == null) {
      return fallback;
    }
    long value = parseLong(name, raw);
    if (value < min || value > max) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_" + name,
          name + " must be between " + min + " and " + max + ", was " + value);
    }
    return (int) value;
  }

  static long longParam(Context ctx, String name, long fallback) {
    String raw = ctx.queryParam(name);
    return raw == null ? fallback : parseLong(name, raw);
  }

  static long parseLong(String name, String raw) {
    try {
      return Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_number", name + " must be a whole number, was '" + raw + "'");
    }
  }
}
