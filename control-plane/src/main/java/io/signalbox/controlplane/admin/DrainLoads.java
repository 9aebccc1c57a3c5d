package io.signalbox.controlplane.admin;

import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.validation.DrainProgress;
import java.time.Duration;

/**
 * What clients' load reports say about draining endpoints, for {@link DrainProgress}: the one
 * thing the drain routes need from load reporting, so they do not depend on how reports are
 * stored or summed.
 */
public interface DrainLoads {

  /** The load-reporting interval the clients were told: a reporting client idle this long is done. */
  Duration interval();

  /** Whether {@code cluster}'s clients are asked for load reports at all. */
  boolean reporting(String cluster);

  /**
   * What the reports of the client {@code nodeId} say about {@code endpoint}: idle, in flight, or
   * nothing (no reports from it, or none recent enough).
   */
  DrainProgress.ClientLoad load(String nodeId, EndpointRef endpoint);

  /** What {@code fleet}'s reports say, located through the published assignments of {@code view}. */
  static DrainLoads of(io.signalbox.controlplane.telemetry.FleetLoad fleet,
      java.util.function.Supplier<io.signalbox.controlplane.reconcile.PublishedView> view) {
    return new FleetDrainLoads(fleet, view);
  }

  /** No load reporting: every client reports nothing, and the deadline decides as it always did. */
  DrainLoads NONE = new DrainLoads() {
    @Override
    public Duration interval() {
      return Duration.ofSeconds(10);
    }

    @Override
    public boolean reporting(String cluster) {
      return false;
    }

    @Override
    public DrainProgress.ClientLoad load(String nodeId, EndpointRef endpoint) {
      return DrainProgress.SILENT;
    }
  };
}
