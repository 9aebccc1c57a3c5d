package io.signalbox.controlplane.fleet;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.signalbox.controlplane.reconcile.HeldUpdates;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * Gauges for what needs a person, read at scrape time: updates the guards hold (and how long the
 * oldest has waited, which the alert rules watch) and how fast the newest epochs reached the fleet.
 */
public final class AttentionMetrics implements MeterBinder {

  private final Supplier<List<HeldUpdates.Held>> held;
  private final ConvergenceHistory convergence;
  private final Clock clock;

  public AttentionMetrics(Supplier<List<HeldUpdates.Held>> held, ConvergenceHistory convergence, Clock clock) {
    this.held = held;
    this.convergence = convergence;
    this.clock = clock;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("signalbox_held_updates", () -> held.get().size())
        .description("cluster updates the guards hold back until confirmed (or, for mass removals, stable)")
        .register(registry);
    Gauge.builder("signalbox_held_update_age_seconds_max", this::oldestHeldSeconds)
        .description("how long the oldest held update has been held, in seconds; 0 when none is")
        .register(registry);
    for (int i = 0; i < ConvergenceHistory.PERCENTS.length; i++) {
      int index = i;
      Gauge.builder("signalbox_epoch_convergence_seconds", () -> convergence.latest(index))
          .description("seconds from an epoch's creation until this share of clients held it, for the newest "
              + "epoch that got there")
          .tag("share", Integer.toString(ConvergenceHistory.PERCENTS[i]))
          .register(registry);
    }
  }

  private double oldestHeldSeconds() {
    Instant now = clock.instant();
    return held.get().stream()
        .mapToDouble(h -> Math.max(0, Duration.between(h.since(), now).toMillis() / 1000.0))
        .max().orElse(0);
  }
}
