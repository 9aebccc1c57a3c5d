package io.signalbox.controlplane.admin;

import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.signalbox.controlplane.fleet.ClientHistory;
import io.signalbox.controlplane.fleet.FleetAt;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.views.ClientConfig;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.store.ClientRecord;
import io.signalbox.store.StreamEvent;
import io.signalbox.validation.ClosestNames;
import io.signalbox.yaml.StrictYaml;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Who held what, when (issue 43), read from the stream history: {@code GET /api/v1/clients/{id}/history}
 * (one node's streams and responses over time) and {@code GET /api/v1/fleet?at=T} (what every
 * client held at a time, and who held one resource version).
 */
final class StreamHistoryRoutes {

  /** How far back {@code history} looks without {@code since}. */
  static final Duration DEFAULT_SINCE = Duration.ofHours(1);

  private final AdminBackend backend;
  private final ApiRouter router;

  StreamHistoryRoutes(AdminBackend backend, ApiRouter router) {
    this.backend = backend;
    this.router = router;
  }

  void register() {
    router.get("/api/v1/clients/{id}/history", Access.READ, this::history);
    router.get("/api/v1/fleet", Access.READ, this::fleetAt);
  }

  private void history(Context ctx) {
    String id = ctx.pathParam("id");
    Instant now = backend.clock().instant();
    Instant since = time(ctx, "since", now.minus(DEFAULT_SINCE), now);
    String rawType = ctx.queryParam("type");
    XdsType type = rawType == null ? null : ClientConfig.parseType(rawType);
    if (rawType != null && type == null) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_type",
          "type must be one of CDS, EDS, LDS, RDS, a type name (CLUSTER) or a type URL, was '" + rawType + "'");
    }
    List<StreamEvent> events = backend.store().history().ofNode(id, since, type == null ? null : type.name(),
        ClientHistory.LIMIT);
    if (events.isEmpty()) {
      List<String> known = new java.util.ArrayList<>(new TreeSet<>(
          backend.xds().clients().stream().map(ClientStatus::nodeId).toList()));
      if (!known.contains(id)) {
        throw new ApiException(HttpStatus.NOT_FOUND, "unknown_client",
            "no client '" + id + "' in the history since " + since + ClosestNames.hint(id, known));
      }
    }
    ctx.json(ClientHistory.of(id, since, type == null ? null : type.name(), events));
  }

  private void fleetAt(Context ctx) {
    Instant now = backend.clock().instant();
    if (ctx.queryParam("at") == null) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_at",
          "at is required: a time (2026-12-07T05:00:00Z) or how long ago (15m)");
    }
    Instant at = time(ctx, "at", now, now);
    String rawHolding = ctx.queryParam("holding");
    FleetAt.Resource holding = null;
    if (rawHolding != null) {
      StringBuilder problem = new StringBuilder();
      holding = FleetAt.Resource.parse(rawHolding, problem).orElseThrow(
          () -> new ApiException(HttpStatus.BAD_REQUEST, "bad_holding", "holding " + problem));
    }
    Snapshot current = backend.xds().current();
    Map<List<Object>, ClientRecord.Position> asked = new HashMap<>();
    if (holding != null) {
      for (ClientRecord r : backend.store().clients().all()) {
        asked.put(List.of(r.key().replicaId(), r.key().streamId(), r.key().typeUrl()), r.position());
      }
    }
    FleetAt.Subscriptions asks = (stream, type, name) -> {
      ClientRecord.Position p = asked.get(List.of(stream.replicaId(), stream.streamId(), type.typeUrl()));
      // No row, or one written before subscriptions were kept: not known, so counted.
      return p == null || p.wildcard() || p.names().isEmpty() || p.names().contains(name);
    };
    ctx.json(FleetAt.of(at, backend.store().history().latestAt(at),
        backend.store().epochs(Integer.MAX_VALUE, Long.MAX_VALUE),
        epoch -> current != null && current.epoch() == epoch ? current
            : backend.store().load(epoch).map(Snapshot::fromEnvelope).orElse(null),
        asks, holding));
  }

  /**
   * A time in a query parameter: an instant ({@code 2026-12-07T05:00:00Z}) or how long before now
   * ({@code 15m}, as durations are written in the config).
   */
  static Instant time(Context ctx, String name, Instant fallback, Instant now) {
    String raw = ctx.queryParam(name);
    if (raw == null) {
      return fallback;
    }
    Optional<Duration> ago = StrictYaml.parseDuration(raw);
    if (ago.isPresent()) {
      return now.minus(ago.get());
    }
    try {
      return Instant.parse(raw);
    } catch (DateTimeParseException e) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_" + name, name
          + " must be a time (2026-12-07T05:00:00Z) or how long ago (15m), was '" + raw + "'");
    }
  }
}
