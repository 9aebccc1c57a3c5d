package io.signalbox.controlplane.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.json.JavalinJackson;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.signalbox.controlplane.reconcile.ReconcileStatus;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP server: the JSON API under {@code /api/v1/}, health, and Prometheus metrics.
 * Field names of status, epochs and clients are a public contract (DESIGN §6).
 */
public final class AdminServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(AdminServer.class);
  private static final long MAX_BODY_BYTES = 64 * 1024;

  private final Javalin app;

  private AdminServer(Javalin app) {
    this.app = app;
  }

  public static ObjectMapper json() {
    return new ObjectMapper()
        .registerModule(new JavaTimeModule())
        .registerModule(new Jdk8Module())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
  }

  public static AdminServer start(String address, int port, Reconciler reconciler, XdsServer xds, SnapshotStore store,
      Runnable reload, PrometheusMeterRegistry prometheus) {
    Javalin app = Javalin.create(config -> {
      config.showJavalinBanner = false;
      config.jsonMapper(new JavalinJackson(json(), false));
      config.http.maxRequestSize = MAX_BODY_BYTES;
      config.useVirtualThreads = false;
    });
    app.exception(StoreUnavailableException.class, (e, ctx) -> error(ctx, HttpStatus.SERVICE_UNAVAILABLE,
        "store_unavailable", "the store cannot be reached: " + e.getMessage()));
    app.exception(NumberFormatException.class, (e, ctx) -> error(ctx, HttpStatus.BAD_REQUEST,
        "bad_number", "expected a whole number: " + e.getMessage()));
    app.error(HttpStatus.NOT_FOUND, ctx -> {
      if (ctx.result() == null || ctx.result().isEmpty()) {
        error(ctx, HttpStatus.NOT_FOUND, "not_found", "no route " + ctx.method() + " " + ctx.path());
      }
    });

    app.get("/healthz", ctx -> ctx.json(Map.of("status", "ok")));
    app.get("/readyz", ctx -> {
      ReconcileStatus s = reconciler.status();
      boolean ready = s.epoch() > 0 && s.storeAvailable();
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("ready", ready);
      body.put("epoch", s.epoch());
      body.put("storeAvailable", s.storeAvailable());
      ctx.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json(body);
    });
    app.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(prometheus.scrape()));

    app.get("/api/v1/status", ctx -> {
      ReconcileStatus s = reconciler.status();
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("epoch", s.epoch());
      body.put("lastSafeEpoch", s.lastSafeEpoch());
      body.put("frozen", s.frozen());
      body.put("storeAvailable", s.storeAvailable());
      body.put("pendingPublish", s.pendingPublish());
      body.put("clients", xds.clients().size());
      body.put("lastRejection", s.lastRejection());
      body.put("sources", s.sources());
      body.put("resourceSerializations", reconciler.serializations());
      ctx.json(body);
    });
    app.get("/api/v1/clients", ctx -> ctx.json(xds.clients()));
    app.get("/api/v1/epochs", ctx -> {
      int limit = Integer.parseInt(ctx.queryParamAsClass("limit", String.class).getOrDefault("50"));
      long before = Long.parseLong(ctx.queryParamAsClass("before", String.class).getOrDefault(Long.toString(Long.MAX_VALUE)));
      if (limit < 1 || limit > 1000) {
        error(ctx, HttpStatus.BAD_REQUEST, "bad_limit", "limit must be between 1 and 1000, was " + limit);
        return;
      }
      List<EpochRecord> epochs = store.epochs(limit, before);
      ctx.json(epochs);
    });
    app.get("/api/v1/epochs/{epoch}", ctx -> {
      long epoch = Long.parseLong(ctx.pathParam("epoch"));
      var record = store.epoch(epoch);
      if (record.isEmpty()) {
        error(ctx, HttpStatus.NOT_FOUND, "unknown_epoch", "no epoch " + epoch);
        return;
      }
      ctx.json(record.get());
    });
    app.get("/api/v1/rejections", ctx -> ctx.json(store.rejections(50)));
    app.post("/api/v1/reload", ctx -> {
      reload.run();
      ctx.status(HttpStatus.ACCEPTED).json(Map.of("reloading", true));
    });

    app.start(address, port);
    log.info("admin API on http://{}:{}/", address, app.port());
    return new AdminServer(app);
  }

  static void error(Context ctx, HttpStatus status, String code, String message) {
    ctx.status(status).json(new ApiError(code, message));
  }

  public int port() {
    return app.port();
  }

  @Override
  public void close() {
    app.stop();
  }
}
