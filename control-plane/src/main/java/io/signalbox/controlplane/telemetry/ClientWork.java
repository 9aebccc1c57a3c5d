package io.signalbox.controlplane.telemetry;

import java.time.Instant;
import java.util.Objects;

/**
 * What one client's latest report says about its work on one cluster × locality: what a drain
 * reads to tell whether the work has finished.
 *
 * @param inFlight requests in progress in its latest report that names this locality (0 when its
 *     latest report for the cluster leaves the locality out: gRPC clients omit a locality once it
 *     has no activity)
 * @param idleSince when its reports started saying 0 in flight there without a break, or null while
 *     it is busy. A lower bound on the truth: the server does not know about work before the
 *     client's {@link ReportingClient#reportingSince()} and keeps an idle start only for the
 *     retention ({@link FleetLoad#retention()}), after which it says "idle at least since then"
 */
public record ClientWork(ReportingClient client, long inFlight, Instant idleSince) {

  public ClientWork {
    Objects.requireNonNull(client, "client");
    if ((inFlight == 0) != (idleSince != null)) {
      throw new IllegalArgumentException("idleSince is set exactly when nothing is in flight: inFlight="
          + inFlight + ", idleSince=" + idleSince);
    }
  }

  public boolean idle() {
    return inFlight == 0;
  }
}
