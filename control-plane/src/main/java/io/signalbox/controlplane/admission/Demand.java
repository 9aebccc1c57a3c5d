package io.signalbox.controlplane.admission;

import io.signalbox.controlplane.reconcile.AutomaticDrops;
import io.signalbox.controlplane.telemetry.ClusterLoad;
import io.signalbox.controlplane.telemetry.DropLoad;
import io.signalbox.controlplane.telemetry.FleetLoad;
import io.signalbox.controlplane.telemetry.LocalityLoad;
import io.signalbox.controlplane.telemetry.ReportingClient;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * A cluster's demand as the fleet's load reports give it: requests per second issued, plus those
 * the automatic drop dropped. grpc-java drops a call before it picks an endpoint
 * ({@code ClusterImplLoadBalancer}'s picker returns {@code PickResult.withDrop} after
 * {@code dropStats.recordDroppedRequest(category)}), so a dropped call is never counted as issued
 * in any locality; it is counted in the cluster's {@code dropped_requests} under its category.
 * Without adding those back, a drop would hide the demand it sheds and lift itself.
 *
 * <p>Averaged over the newest {@value #INTERVALS} closed intervals: a client reports every interval
 * from its own start, so one aligned interval holds zero, one or two of its reports; over five,
 * the count is off by at most one report in five.
 */
final class Demand {

  static final int INTERVALS = 5;

  private Demand() {}

  /**
   * @param fresh whether some client reported the cluster within the last two intervals
   */
  record Reading(double rps, boolean fresh) {}

  static Reading of(FleetLoad load, String cluster, Instant now) {
    Duration interval = load.interval();
    ClusterLoad c = load.load(cluster, now.minus(interval.multipliedBy(INTERVALS + 2L)));
    boolean fresh = false;
    for (ReportingClient client : c.clients()) {
      if (client.lastReport() != null && !client.lastReport().isBefore(now.minus(interval.multipliedBy(2)))) {
        fresh = true;
      }
    }
    Instant newest = null;
    Instant oldest = null;
    for (LocalityLoad l : c.localities()) {
      newest = newest == null || l.intervalStart().isAfter(newest) ? l.intervalStart() : newest;
    }
    for (DropLoad d : c.drops()) {
      newest = newest == null || d.intervalStart().isAfter(newest) ? d.intervalStart() : newest;
    }
    if (newest == null) {
      return new Reading(0, fresh);
    }
    Instant from = newest.minus(interval.multipliedBy(INTERVALS - 1L));
    long requests = 0;
    // A locality reported as a whole ("" row) is counted once; one reported only per endpoint is
    // the sum of its endpoints.
    Set<String> whole = new HashSet<>();
    for (LocalityLoad l : c.localities()) {
      if (!l.intervalStart().isBefore(from) && l.endpoint().isEmpty()) {
        whole.add(l.intervalStart() + "|" + l.locality());
      }
    }
    for (LocalityLoad l : c.localities()) {
      if (l.intervalStart().isBefore(from)) {
        continue;
      }
      if (l.endpoint().isEmpty() || !whole.contains(l.intervalStart() + "|" + l.locality())) {
        requests += l.issued();
        oldest = oldest == null || l.intervalStart().isBefore(oldest) ? l.intervalStart() : oldest;
      }
    }
    for (DropLoad d : c.drops()) {
      if (!d.intervalStart().isBefore(from) && d.category().equals(AutomaticDrops.CATEGORY)) {
        requests += d.dropped();
        oldest = oldest == null || d.intervalStart().isBefore(oldest) ? d.intervalStart() : oldest;
      }
    }
    if (oldest == null) {
      return new Reading(0, fresh);
    }
    long intervals = Duration.between(oldest, newest).dividedBy(interval) + 1;
    return new Reading(requests / (intervals * (interval.toMillis() / 1000.0)), fresh);
  }
}
