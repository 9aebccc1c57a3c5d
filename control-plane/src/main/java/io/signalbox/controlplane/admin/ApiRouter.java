package io.signalbox.controlplane.admin;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.javalin.http.Header;
import io.javalin.http.HttpStatus;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.AuditTrail;
import io.signalbox.store.StoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers admin routes so that every one of them gets the same treatment: an access level
 * checked before it runs, a time limit, strict size-limited JSON bodies, and an audit entry for
 * every write. Routes added by other packages go through here too.
 */
public final class ApiRouter {

  private static final Logger log = LoggerFactory.getLogger(ApiRouter.class);
  static final String CALLER = "signalbox.caller";
  /** A write's body, as {@link BodyReader} read it. */
  private static final String BODY = "signalbox.body";
  /** Request bodies are small JSON objects; anything larger is a mistake or an attack. */
  public static final int MAX_BODY_BYTES = 64 * 1024;

  /**
   * A state-changing handler: answers the request and says what to audit, or null when the request
   * changed nothing worth an entry (a lease renewal with the same content, sent every few seconds).
   */
  @FunctionalInterface
  public interface WriteHandler {
    Audit handle(Context ctx, Caller caller) throws Exception;
  }

  /** One audit entry's content; the router adds the time and the caller. */
  public record Audit(String action, String target, String reason) {}

  private final Javalin app;
  private final RequestBodies bodies = new RequestBodies();
  private final AuditTrail store;
  private final Clock clock;
  private final ExecutorService executor;
  private final Duration timeout;
  private final BodyReader reader;

  ApiRouter(Javalin app, AuditTrail store, Clock clock, ExecutorService executor, Duration timeout,
      BodyReader reader) {
    this.app = app;
    this.store = store;
    this.clock = clock;
    this.executor = executor;
    this.timeout = timeout;
    this.reader = reader;
  }

  /**
   * A read: {@code handler} answers; nothing is audited. {@code HEAD} on the same path runs the same
   * handler with the same access level (Jetty sends its status and headers, not its body): Javalin's
   * own HEAD fallback skips the handler, and with it the access check, the status and the headers a
   * load balancer's health check asks for.
   */
  public void get(String path, Access access, Handler handler) {
    app.addHttpHandler(HandlerType.GET, path, limited(handler, false), access);
    app.addHttpHandler(HandlerType.HEAD, path, limited(handler, false), access);
  }

  /**
   * A write: audited as the caller once {@code handler} returns normally. A write takes no query
   * parameters, and a DELETE no body: either would be ignored, and a request that looks like it
   * asked for more than it got ({@code POST /rollback?to=3}) is refused before anything changes.
   */
  public void write(HandlerType method, String path, Access access, WriteHandler handler) {
    app.addHttpHandler(method, path, limited(ctx -> {
      Caller caller = ctx.attribute(CALLER);
      // Javalin matches /endpoints/10.0.0.1:80/ to the route without the slash; a write names
      // exactly what it changes, so a path that is not the route's own form is refused.
      if (ctx.path().length() > 1 && ctx.path().endsWith("/")) {
        throw new ApiException(HttpStatus.BAD_REQUEST, "trailing_slash", ctx.method() + " " + ctx.path()
            + " ends with '/'; the route is " + ctx.method() + " " + ctx.endpointHandlerPath() + ", without it");
      }
      if (!ctx.queryParamMap().isEmpty()) {
        throw new ApiException(HttpStatus.BAD_REQUEST, "unknown_parameter",
            ctx.method() + " " + ctx.endpointHandlerPath() + " takes no query parameters, was given "
                + ctx.queryParamMap().keySet().stream().sorted().toList());
      }
      if (method == HandlerType.DELETE) {
        RequestBodies.none(readLimited(ctx));
      }
      // Stamped when the request arrived: what it causes (an epoch and its transitions, built at
      // once on the reconciler's thread) may be audited before the handler returns, and the log
      // must still list the cause first.
      Instant received = clock.instant();
      Audit audit = handler.handle(ctx, caller);
      if (audit == null) {
        return;
      }
      // Every operator change (drain, undrain, eject, weight, confirm, freeze, unfreeze, rollback,
      // reload) in the log too, with who and why: the log is where an incident is read first.
      log.info("operator {} {} by {}{}", audit.action(), audit.target(), caller.name(),
          audit.reason() == null || audit.reason().isEmpty() ? "" : ": " + audit.reason());
      try {
        store.audit(new AuditEntry(received, caller.name(), audit.action(), audit.target(), audit.reason()));
      } catch (StoreUnavailableException e) {
        // The change already happened; failing the request now would make the caller retry it.
        log.warn("could not audit {} {} by {} ({}): {}", audit.action(), audit.target(), caller.name(),
            audit.reason(), e.getMessage());
      }
    }, true), access);
  }

  /**
   * An optional request body as {@code type}, read by the one strict reader ({@link RequestBodies}):
   * unknown keys, duplicate keys, content after the document, coerced types and non-JSON media
   * types are errors (DESIGN §6 "Values"), and bodies over {@link #MAX_BODY_BYTES} are refused even
   * when sent chunked without a length.
   *
   * @return null for an empty body, whatever its Content-Type
   */
  public <T> T body(Context ctx, Class<T> type) {
    return bodies.optional(readLimited(ctx), ctx.header(Header.CONTENT_TYPE), ctx.header(Header.CONTENT_ENCODING),
        type);
  }

  /** A request body the route cannot do without: as {@link #body}, and an empty one is a 400. */
  public <T> T requiredBody(Context ctx, Class<T> type) {
    return bodies.required(readLimited(ctx), ctx.header(Header.CONTENT_TYPE), ctx.header(Header.CONTENT_ENCODING),
        type);
  }

  /** The body {@link BodyReader} read, within its limit, before the handler was given a thread. */
  private static byte[] readLimited(Context ctx) {
    byte[] bytes = ctx.attribute(BODY);
    if (bytes == null) {
      throw new IllegalStateException("no body was read for " + ctx.method() + " " + ctx.endpointHandlerPath()
          + ": only write routes read bodies");
    }
    return bytes;
  }

  static ApiException tooLarge() {
    return new ApiException(HttpStatus.CONTENT_TOO_LARGE, "payload_too_large",
        "request bodies are limited to " + MAX_BODY_BYTES + " bytes");
  }

  /**
   * Runs the handler on the admin executor with a deadline, so a hung store query answers 503
   * instead of holding a Jetty thread and the client forever. A write's body is read first, by
   * {@link BodyReader} without holding any thread: the executor is small, and the reads it answers
   * (health, status, renewals) must not wait behind a client that sends its body slowly.
   */
  private Handler limited(Handler handler, boolean readsBody) {
    return ctx -> ctx.future(() -> {
      // Javalin has started the servlet's async mode; the deadlines are the two below, not Jetty's.
      ctx.req().getAsyncContext().setTimeout(0);
      CompletableFuture<?> body = readsBody ? reader.read(ctx).thenAccept(bytes -> ctx.attribute(BODY, bytes))
          : CompletableFuture.completedFuture(null);
      return body.thenCompose(read -> CompletableFuture.runAsync(() -> {
        try {
          handler.handle(ctx);
        } catch (Exception e) {
          throw e instanceof CompletionException c ? c : new CompletionException(e);
        }
      }, executor).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)).exceptionally(failure -> {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        if (!(cause instanceof TimeoutException)) {
          throw failure instanceof CompletionException c ? c : new CompletionException(failure);
        }
        ctx.status(HttpStatus.SERVICE_UNAVAILABLE).json(new ApiError("timeout",
            "the request did not complete within " + timeout.toMillis() + " ms"));
        return null;
      });
    });
  }
}
