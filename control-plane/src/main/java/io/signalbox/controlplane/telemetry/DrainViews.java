package io.signalbox.controlplane.telemetry;

import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.validation.DrainProgress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One operator drain as {@code GET /api/v1/drains} and {@code drain --wait} show it: the facts
 * (who holds the cluster, who ACKed, what their load reports say) gathered here, the verdict from
 * validation's {@link DrainProgress}, which is the only place that decides.
 */
public final class DrainViews {

  private DrainViews() {}

  /**
   * A drain in progress: {@code safeToRemove} once every holder ACKed the draining epoch and either
   * every holder reported itself idle there for one interval ({@code basis} IDLE) or the deadline
   * passed (DEADLINE); {@code verdict} says why, or what it waits for. Without load reporting every
   * client reports nothing, so the deadline decides: the rule before load reports.
   */
  public record DrainView(String cluster, String endpoint, String actor, String reason, Instant requestedAt,
      Instant deadline, Long drainingEpoch, int clientsAcked, int clientsTotal, boolean deadlinePassed,
      boolean safeToRemove, DrainProgress.Basis basis, String verdict, boolean loadReporting, List<String> ackedBy,
      List<String> notAckedBy, List<IdleClient> idle, long inFlight, List<BusyClient> inFlightBy,
      List<String> reportingNothing) {}

  /** A reporting client idle on a draining endpoint, and how long its reports vouch for (ms). */
  record IdleClient(String client, long idleForMs) {}

  /** A reporting client with work in flight on a draining endpoint. */
  record BusyClient(String client, long inFlight) {}

  /**
   * @param drainingEpoch the first epoch of the endpoint's DRAINING run, null while none carries it
   * @param holders the connected clients holding the endpoint's cluster
   */
  public static DrainView of(OperatorOverride.Drain d, Long drainingEpoch, List<ClientStatus> holders, DrainLoads loads,
      Instant now) {
    boolean reporting = loads.reporting(d.endpoint().cluster());
    var reported = reporting ? loads.loads(d.endpoint()) : java.util.Map.<String, DrainProgress.ClientLoad>of();
    List<DrainProgress.Holder> judged = new ArrayList<>(holders.size());
    for (ClientStatus c : holders) {
      var t = c.types().get(XdsType.ENDPOINT.typeUrl());
      boolean acked = drainingEpoch != null && t != null
          && DrainProgress.holdsDrainingEpoch(t.syncedEpoch(), drainingEpoch);
      judged.add(new DrainProgress.Holder(c.nodeId(), acked, t == null ? null : t.ackedAt(),
          reported.getOrDefault(c.nodeId(), DrainProgress.SILENT)));
    }
    DrainProgress.Verdict v = DrainProgress.judge(
        new DrainProgress.Drain(drainingEpoch, judged, d.deadlineAt(), reporting, loads.interval(), now));
    return new DrainView(d.endpoint().cluster(), d.endpoint().key(), d.actor(), d.reason(), d.createdAt(),
        d.deadlineAt(), drainingEpoch, v.acked().size(), judged.size(), v.deadlinePassed(), v.safe(), v.basis(),
        v.reason(), reporting, v.acked(), v.notAcked(),
        v.idle().stream().map(i -> new IdleClient(i.client(), i.idleFor().toMillis())).toList(),
        v.inFlightTotal(), v.inFlight().stream().map(b -> new BusyClient(b.client(), b.inFlight())).toList(),
        v.silent());
  }
}
