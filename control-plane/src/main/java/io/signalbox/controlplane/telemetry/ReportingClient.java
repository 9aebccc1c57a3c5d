package io.signalbox.controlplane.telemetry;

import java.time.Instant;
import java.util.Objects;

/**
 * A client that reports load for a cluster, and how fresh its reports are.
 *
 * @param nodeId the client's {@code node.id} (from its LRS stream's first request)
 * @param replica the replica its LRS stream is connected to
 * @param lastReport when its latest report arrived
 * @param reportingSince when its current run of reports began (its stream opened, or it came back
 *     after missing more than two intervals)
 */
public record ReportingClient(String nodeId, String replica, Instant lastReport, Instant reportingSince) {

  public ReportingClient {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(lastReport, "lastReport");
    Objects.requireNonNull(reportingSince, "reportingSince");
    replica = Objects.requireNonNullElse(replica, "");
  }
}
