package io.signalbox.controlplane.admin;

import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.signalbox.controlplane.timeline.TimelineQuery;
import io.signalbox.yaml.StrictYaml;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** {@code GET /api/v1/timeline}: what happened, in one ordered list ({@link TimelineQuery}). */
final class TimelineRoutes {

  static final Duration DEFAULT_SINCE = Duration.ofHours(1);
  static final int DEFAULT_LIMIT = 200;
  static final int MAX_LIMIT = 1000;

  private final AdminBackend backend;
  private final ApiRouter router;

  TimelineRoutes(AdminBackend backend, ApiRouter router) {
    this.backend = backend;
    this.router = router;
  }

  void register() {
    router.get("/api/v1/timeline", Access.READ, ctx -> {
      Instant since = since(ctx, backend.clock().instant());
      int limit = CoreRoutes.intParam(ctx, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
      ctx.json(TimelineQuery.run(backend.store(), since, limit));
    });
  }

  /** {@code since}: a duration back from now ({@code 1h}, {@code 30m}) or a time ({@code 2025-01-02T03:04:05Z}). */
  static Instant since(Context ctx, Instant now) {
    String raw = ctx.queryParam("since");
    if (raw == null) {
      return now.minus(DEFAULT_SINCE);
    }
    Optional<Duration> back = StrictYaml.parseDuration(raw);
    if (back.isPresent()) {
      return now.minus(back.get());
    }
    try {
      return Instant.parse(raw);
    } catch (DateTimeParseException e) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_since", "since must be a duration back from now (90s, 30m, 1h)"
          + " or a UTC time (2025-01-02T03:04:05Z), was '" + raw + "'");
    }
  }
}
