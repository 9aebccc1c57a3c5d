package io.signalbox.controlplane.admin;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.javalin.http.Context;
import io.javalin.http.Header;
import io.javalin.http.HttpStatus;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.HttpChannel;
import org.eclipse.jetty.server.Request;

/**
 * Reads a request body before any handler thread is taken: with the servlet's non-blocking
 * {@link ReadListener} (Jetty calls it from its selector when bytes arrive), within a deadline and
 * a size limit.
 *
 * <p>The deadline is enforced by Jetty's own read timeout, made to fire: a pending non-blocking
 * read cannot be cancelled through the servlet API, and completing the response while it is
 * pending makes Jetty abort the connection without sending the 408. So the connection's idle
 * timeout is the deadline while the body is read (no byte at all for that long), and when the
 * deadline passes with bytes still trickling in, it is cut to 1 ms; either way Jetty fails the read,
 * {@link ReadListener#onError} answers 408, and the idle timeout is put back for a body that made it.
 *
 * <p>Why not the alternatives. A blocking read on the handler pool is what let five slow bodies
 * starve every read of the API (issue 29): the pool is small on purpose. A blocking read on Jetty's
 * own pool only moves the limit (one thread per stalled body, 250 of them), and a blocking read
 * wakes only on the 30 s idle timeout, so a client trickling one byte every few seconds holds it
 * for as long as it likes. Jetty's minimum data rate is checked only when bytes arrive. Here a
 * stalled body holds a buffer and one scheduled task, nothing else, whatever the number of them;
 * its deadline counts from the end of the headers, so trickling does not extend it.
 */
final class BodyReader implements AutoCloseable {

  private static final int CHUNK = 8 * 1024;

  private final Duration deadline;
  private final int maxBytes;
  /** Cuts the idle timeout of a body past its deadline; nothing else runs here. */
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setNameFormat("admin-body-deadline").setDaemon(true).build());

  BodyReader(Duration deadline, int maxBytes) {
    this.deadline = deadline;
    this.maxBytes = maxBytes;
  }

  /**
   * The whole body, or a failure with the API's refusal: {@code 408 body_timeout} past the
   * deadline, {@code 413 payload_too_large} past the limit, {@code 400 bad_json} when the client
   * broke off. The servlet request must be in async mode (Javalin starts it before it asks a
   * {@code ctx.future} for its future).
   */
  CompletableFuture<byte[]> read(Context ctx) {
    CompletableFuture<byte[]> body = new CompletableFuture<>();
    ServletInputStream in;
    try {
      in = ctx.req().getInputStream();
    } catch (IOException e) {
      return CompletableFuture.failedFuture(unreadable(e));
    }
    HttpChannel channel = Request.getBaseRequest(ctx.req()).getHttpChannel();
    long idleTimeout = channel.getIdleTimeout();
    channel.setIdleTimeout(deadline.toMillis());
    // Guards the connection's idle timeout: a body completing just as its deadline passes must
    // not have the cut land after the restore, or the handler's answer would meet a 1 ms timeout.
    Object idle = new Object();
    ScheduledFuture<?> cut = timer.schedule(() -> {
      synchronized (idle) {
        if (!body.isDone()) {
          channel.setIdleTimeout(1);
        }
      }
    }, deadline.toMillis(), TimeUnit.MILLISECONDS);
    body.whenComplete((bytes, failure) -> {
      cut.cancel(false);
      if (failure == null) {
        synchronized (idle) {
          channel.setIdleTimeout(idleTimeout);
        }
      }
    });
    // Jetty calls one listener method at a time, so the buffer needs no lock.
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    in.setReadListener(new ReadListener() {
      @Override
      public void onDataAvailable() throws IOException {
        byte[] chunk = new byte[CHUNK];
        while (!body.isDone() && in.isReady()) {
          int n = in.read(chunk);
          if (n < 0) {
            return; // onAllDataRead follows
          }
          buffer.write(chunk, 0, n);
          if (buffer.size() > maxBytes) {
            refuse(ctx, body, ApiRouter.tooLarge());
          }
        }
      }

      @Override
      public void onAllDataRead() {
        body.complete(buffer.toByteArray());
      }

      @Override
      public void onError(Throwable failure) {
        refuse(ctx, body, failure instanceof TimeoutException || failure.getCause() instanceof TimeoutException
            ? new ApiException(HttpStatus.REQUEST_TIMEOUT, "body_timeout",
                "the request body did not arrive within " + deadline.toMillis() + " ms")
            : unreadable(failure));
      }
    });
    return body;
  }

  /**
   * Completing the body answers the request (on this thread), so the header goes first: the rest
   * of the body is never read, and the connection cannot carry another request.
   */
  private static void refuse(Context ctx, CompletableFuture<byte[]> body, ApiException refusal) {
    if (!body.isDone()) {
      ctx.header(Header.CONNECTION, "close");
      body.completeExceptionally(refusal);
    }
  }

  private static ApiException unreadable(Throwable failure) {
    return new ApiException(HttpStatus.BAD_REQUEST, "bad_json", "the request body cannot be read: "
        + (failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage()));
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
