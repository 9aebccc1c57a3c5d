package io.signalbox.controlplane.telemetry;

import java.time.Instant;
import java.util.Objects;

/**
 * What one client's latest report says about its work on one cluster × locality: what a drain
 * reads to tell whether the work has finished.
 *
 * @param inFlight requests in progress in its latest report that names this locality. A report
 *     that leaves the locality out reads as 0 when the count before was 0 (gRPC clients omit a
 *     locality once it has no activity), and keeps the count before otherwise (@grpc/grpc-js-xds
 *     omits a locality, or a whole cluster, whose only activity is calls in progress) until the
 *     client names it again, its LRS stream ends or it comes back after a silence
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
