package io.signalbox.controlplane.admin;

import io.signalbox.controlplane.views.ClientConfig;
import io.signalbox.validation.ClosestNames;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@code GET /api/v1/clients/{id}/config}: what one client was sent, ACKed and NACKed, resource by
 * resource, and how it differs from the current epoch (see {@link ClientConfig}). Apart from the
 * core routes: it reads the epoch log, not only the fleet's rows.
 */
final class ClientConfigRoutes {

  private final AdminBackend backend;
  private final ApiRouter router;

  ClientConfigRoutes(AdminBackend backend, ApiRouter router) {
    this.backend = backend;
    this.router = router;
  }

  void register() {
    router.get("/api/v1/clients/{id}/config", Access.READ, this::config);
  }

  private void config(Context ctx) {
    String id = ctx.pathParam("id");
    String rawType = ctx.queryParam("type");
    XdsType only = rawType == null ? null : ClientConfig.parseType(rawType);
    if (rawType != null && only == null) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_type",
          "type must be one of CDS, EDS, LDS, RDS or a type URL, was '" + rawType + "'");
    }
    List<ClientStatus> clients = backend.xds().clients();
    // A node id on two streams (a reconnect not yet noticed, two replicas): the newest stream is
    // the one the client uses.
    Optional<ClientStatus> client = clients.stream().filter(c -> c.nodeId().equals(id))
        .max(Comparator.comparing(ClientStatus::connectedAt, Comparator.nullsFirst(Comparator.naturalOrder())));
    if (client.isEmpty()) {
      List<String> known = new ArrayList<>(new TreeSet<>(clients.stream().map(ClientStatus::nodeId).toList()));
      throw new ApiException(HttpStatus.NOT_FOUND, "unknown_client",
          "no connected client '" + id + "'" + ClosestNames.hint(id, known));
    }
    Snapshot current = backend.xds().current();
    Map<Long, Optional<Snapshot>> loaded = new HashMap<>();
    List<ClientStatus> node = clients.stream().filter(c -> c.nodeId().equals(id))
        .sorted(Comparator.comparing(ClientStatus::replicaId).thenComparingLong(ClientStatus::streamId)).toList();
    ctx.json(ClientConfig.of(client.get(), node, epoch -> current != null && current.epoch() == epoch ? current
        : loaded.computeIfAbsent(epoch, e -> backend.store().load(e).map(Snapshot::fromEnvelope)).orElse(null),
        current, only, backend.replica().get().replicaId()));
  }
}
