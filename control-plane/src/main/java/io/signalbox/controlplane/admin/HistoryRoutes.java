package io.signalbox.controlplane.admin;

import io.signalbox.controlplane.fleet.FleetMetrics;
import io.signalbox.controlplane.fleet.FleetSampler;
import io.signalbox.controlplane.fleet.LagHistory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The fleet over time, as the dashboard plots it: the lag ring buffer and the convergence of the
 * newest epochs, both kept in memory by {@link FleetSampler} (a restart starts them afresh).
 */
final class HistoryRoutes {

  private final FleetSampler sampler;
  private final Clock clock;
  private final ApiRouter router;

  HistoryRoutes(FleetSampler sampler, Clock clock, ApiRouter router) {
    this.sampler = sampler;
    this.clock = clock;
    this.router = router;
  }

  /**
   * Lag samples, oldest first, one every {@code intervalSeconds}; {@code groups} keeps the largest
   * groups of each (a chart of five lines need not download a hundred).
   */
  record Lag(long intervalSeconds, List<LagHistory.Sample> samples) {}

  void register() {
    router.get("/api/v1/lag", Access.READ, ctx -> {
      int minutes = CoreRoutes.intParam(ctx, "minutes", (int) FleetSampler.LAG_SPAN.toMinutes(), 1,
          (int) FleetSampler.LAG_SPAN.toMinutes());
      int groups = CoreRoutes.intParam(ctx, "groups", FleetMetrics.MAX_GROUPS + 1, 0, FleetMetrics.MAX_GROUPS + 1);
      ctx.json(new Lag(FleetSampler.LAG_EVERY.toSeconds(),
          sampler.lag().since(clock.instant().minus(Duration.ofMinutes(minutes))).stream()
              .map(s -> s.largestGroups(groups)).toList()));
    });
    router.get("/api/v1/convergence", Access.READ, ctx -> ctx.json(sampler.convergence().recent()));
  }
}
