package io.signalbox.controlplane.telemetry;

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
   * What each client's reports say about {@code endpoint}, by node id: idle or in flight. A client
   * not in the map says nothing (no reports from it, or none recent enough). Asked once per drain
   * view, whatever the number of clients holding the endpoint.
   */
  java.util.Map<String, DrainProgress.ClientLoad> loads(EndpointRef endpoint);

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
    public java.util.Map<String, DrainProgress.ClientLoad> loads(EndpointRef endpoint) {
      return java.util.Map.of();
    }
  };
}
