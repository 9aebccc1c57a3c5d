package io.signalbox.controlplane.admin;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.Header;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.json.JavalinJackson;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.signalbox.controlplane.config.AdminSettings;
import io.signalbox.store.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP server: the JSON API under {@code /api/v1/}, the dashboard at {@code /}, health,
 * and Prometheus metrics. Every route is registered through {@link ApiRouter} with an
 * {@link Access} level; every error, including Javalin's own 404 and 405, is {@code {"code",
 * "message"}}.
 */
public final class AdminServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(AdminServer.class);
  /** How long a handler may run before the caller gets 503 {@code timeout}. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
  /** How long a connection may sit without sending, so slow clients cannot hold threads. */
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);
  /**
   * How long a write's body may take to arrive, counted from its headers: bodies are at most 64 KiB
   * and sent at once by the CLI and registering instances, so a body still missing after this is a
   * stalled or hostile client (408 {@code body_timeout}, connection closed).
   */
  static final Duration BODY_DEADLINE = Duration.ofSeconds(5);

  /** One registered route, as Javalin holds it (the HEAD beside every GET is not listed). */
  public record Route(String method, String path, Access access) {}

  private final Javalin app;
  private final ExecutorService executor;
  private final BodyReader bodies;
  private final JvmGcMetrics gcMetrics;
  private final List<Route> routes;
  private final AdminTls tls;

  private AdminServer(Javalin app, ExecutorService executor, BodyReader bodies, JvmGcMetrics gcMetrics,
      List<Route> routes, AdminTls tls) {
    this.app = app;
    this.executor = executor;
    this.bodies = bodies;
    this.gcMetrics = gcMetrics;
    this.routes = routes;
    this.tls = tls;
  }

  /** The API's JSON: ISO-8601 times, Optionals as values. */
  public static ObjectMapper json() {
    return new ObjectMapper()
        .registerModule(new JavaTimeModule())
        .registerModule(new Jdk8Module())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
  }

  /**
   * Binds the admin server. With no tokens configured {@code settings.address()} defaults to
   * loopback (see {@link AdminSettings}).
   *
   * @param tls the certificate of {@code settings.tls()}, already watched ({@link AdminTls#start}), or
   *     null for plain HTTP; closed with this server
   * @param reads the read models with threads of their own, started and closed by the caller
   * @param environment resolves tokens' {@code secretEnv}, normally {@code System::getenv}
   */
  public static AdminServer start(AdminSettings settings, AdminTls tls, AdminBackend backend, ReadModels reads,
      Function<String, String> environment) {
    TokenAuth auth = TokenAuth.of(settings.tokens(), settings.openMetrics(), environment);
    List<Route> routes = Collections.synchronizedList(new ArrayList<>());
    ObjectMapper json = json();
    Javalin app = Javalin.create(config -> {
      config.showJavalinBanner = false;
      config.jsonMapper(new JavalinJackson(json, false));
      config.http.maxRequestSize = ApiRouter.MAX_BODY_BYTES;
      config.http.prefer405over404 = true;
      config.useVirtualThreads = false;
      config.events.handlerAdded(meta -> {
        // Not before/after filters, and not the HEAD that ApiRouter.get adds beside every GET:
        // docs/api.md says that once instead of doubling its route table.
        if (meta.getHttpMethod().isHttpMethod() && meta.getHttpMethod() != HandlerType.HEAD) {
          routes.add(new Route(meta.getHttpMethod().name(), meta.getPath(),
              meta.getRoles().stream().map(Access.class::cast).findFirst().orElse(null)));
        }
      });
      config.jetty.modifyServer(server -> server.setErrorHandler(new JettyErrors(json)));
      config.jetty.addConnector((server, http) -> {
        ServerConnector connector = tls == null ? new ServerConnector(server, new HttpConnectionFactory(http))
            : tls.connector(server, http);
        connector.setHost(settings.address());
        connector.setPort(settings.port());
        connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        // Dispatch as soon as the headers are in, so BodyReader's deadline also covers a body whose
        // first byte never comes (Jetty would otherwise wait for it until the idle timeout).
        http.setDelayDispatchUntilContent(false);
        return connector;
      });
    });
    app.beforeMatched(ctx -> {
      RequestFraming.check(ctx.req());
      Access access = ctx.routeRoles().stream().map(Access.class::cast).findFirst()
          .orElseThrow(() -> new IllegalStateException("route without access level: " + ctx.endpointHandlerPath()));
      Caller caller = auth.check(ctx, access);
      // Checked before the body is read, so an oversize upload is refused without reading it.
      if (ctx.req().getContentLengthLong() > ApiRouter.MAX_BODY_BYTES) {
        throw ApiRouter.tooLarge();
      }
      ctx.attribute(ApiRouter.CALLER, caller);
    });
    mapErrors(app);

    ExecutorService executor = Executors.newFixedThreadPool(4,
        new ThreadFactoryBuilder().setNameFormat("admin-api-%d").setDaemon(true).build());
    new JvmMemoryMetrics().bindTo(backend.meters());
    new JvmThreadMetrics().bindTo(backend.meters());
    new ClassLoaderMetrics().bindTo(backend.meters());
    new ProcessorMetrics().bindTo(backend.meters());
    new UptimeMetrics().bindTo(backend.meters());
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(backend.meters());

    BodyReader bodies = new BodyReader(BODY_DEADLINE, ApiRouter.MAX_BODY_BYTES);
    ApiRouter router = new ApiRouter(app, backend.store(), backend.clock(), executor, REQUEST_TIMEOUT, bodies);
    new CoreRoutes(backend, reads.fleet(), router, reads.load()::refresh).register();
    new OperatorRoutes(backend, router).register();
    new AdmissionRoutes(backend, router).register();
    new LoadRoutes(backend, router, reads.firstTraffic()).register();
    new RegistryRoutes(backend.registry(), router).register();
    new HistoryRoutes(reads.sampler(), backend.clock(), router).register();
    new ExplainRoutes(backend, router).register();
    new TimelineRoutes(backend, router).register();
    new PlanRoutes(backend.planner(), router).register();
    new StreamHistoryRoutes(backend, router).register();

    app.start();
    log.info("admin API on {}://{}:{}/ ({})", tls == null ? "http" : "https", settings.address(), app.port(),
        auth.enabled() ? settings.tokens().size() + " tokens" : "open, no tokens configured");
    if (tls == null && auth.enabled() && !AdminSettings.LOOPBACK.equals(settings.address())) {
      log.warn("admin tokens travel in cleartext to {}: set admin.tls to serve the admin API over HTTPS",
          settings.address());
    }
    return new AdminServer(app, executor, bodies, gc, routes, tls);
  }

  private static void mapErrors(Javalin app) {
    app.exception(ApiException.class, (e, ctx) -> {
      if (e.status() == HttpStatus.UNAUTHORIZED) {
        ctx.header(Header.WWW_AUTHENTICATE, "Bearer realm=\"signalbox\"");
      }
      ctx.status(e.status()).json(e.body());
    });
    app.exception(StoreUnavailableException.class, (e, ctx) -> error(ctx, HttpStatus.SERVICE_UNAVAILABLE,
        "store_unavailable", "the store cannot be reached: " + e.getMessage()));
    app.exception(HttpResponseException.class, (e, ctx) -> {
      HttpStatus status = HttpStatus.forStatus(e.getStatus());
      error(ctx, status, codeOf(status), messageOf(ctx, status, e.getMessage()));
    });
    app.exception(Exception.class, (e, ctx) -> {
      log.error("admin request {} {} failed", ctx.method(), ctx.path(), e);
      error(ctx, HttpStatus.INTERNAL_SERVER_ERROR, "internal", "internal error: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    });
    // Javalin answers unmatched paths and methods itself; give those the same JSON shape.
    for (HttpStatus status : List.of(HttpStatus.NOT_FOUND, HttpStatus.METHOD_NOT_ALLOWED)) {
      app.error(status, ctx -> {
        if (ctx.result() == null || ctx.result().isEmpty() || !ctx.result().startsWith("{\"code\"")) {
          error(ctx, status, codeOf(status), messageOf(ctx, status, null));
        }
      });
    }
  }

  static String codeOf(HttpStatus status) {
    return switch (status) {
      case NOT_FOUND -> "not_found";
      case METHOD_NOT_ALLOWED -> "method_not_allowed";
      case CONTENT_TOO_LARGE -> "payload_too_large";
      case BAD_REQUEST -> "bad_request";
      case UNAUTHORIZED -> "unauthorized";
      case FORBIDDEN -> "forbidden";
      case SERVICE_UNAVAILABLE -> "unavailable";
      default -> "http_" + status.getCode();
    };
  }

  private static String messageOf(Context ctx, HttpStatus status, String fallback) {
    return switch (status) {
      case NOT_FOUND -> "no route " + ctx.method() + " " + ctx.path();
      case METHOD_NOT_ALLOWED -> "method " + ctx.method() + " is not allowed on " + ctx.path();
      case CONTENT_TOO_LARGE -> ApiRouter.tooLarge().getMessage();
      default -> fallback == null ? status.getMessage() : fallback;
    };
  }

  static void error(Context ctx, HttpStatus status, String code, String message) {
    ctx.status(status).json(new ApiError(code, message));
  }

  public int port() {
    return app.port();
  }

  /** Every route registered with Javalin, in registration order, but the HEAD beside every GET. */
  public List<Route> routes() {
    synchronized (routes) {
      return List.copyOf(routes);
    }
  }

  @Override
  public void close() {
    app.stop();
    if (tls != null) {
      tls.close();
    }
    executor.shutdownNow();
    bodies.close();
    gcMetrics.close();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
