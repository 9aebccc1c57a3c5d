package io.signalbox.controlplane.admission;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.signalbox.controlplane.admission.AdmissionController.Decision;
import io.signalbox.controlplane.admission.AdmissionController.Settings;
import io.signalbox.controlplane.admission.AdmissionController.State;
import io.signalbox.controlplane.reconcile.AutomaticDrops;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.telemetry.DemandWindow;
import io.signalbox.controlplane.telemetry.FleetLoad;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Automatic shedding on the leader: once per load-report interval, for every cluster that declares
 * {@code admission}, the {@link AdmissionController} decides the {@code signalbox_overload} drop
 * from the published epoch's eligible endpoints and the fleet's load reports, and a changed drop
 * is handed to the writer as a build input ({@link AutomaticDrops}) with its cause.
 *
 * <p>Only the leader decides. A process that stops leading forgets its states and hands the writer
 * {@link AutomaticDrops#INHERITED}; one that starts leading starts every cluster from the drop the
 * last published epoch carries, as if just set, so a leader change neither lifts nor resets a drop.
 */
public final class AutoShedding implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(AutoShedding.class);

  private final Clock clock;
  private final FleetLoad load;
  private final Supplier<PublishedView> view;
  private final BooleanSupplier leading;
  private final BiConsumer<AutomaticDrops, String> writer;
  // Confined to the thread that ticks (the timer's): no lock, so the store reads and the writer's
  // call below are made under none (STYLE; issue 41).
  private final Map<String, State> states = new HashMap<>();
  private boolean decided;
  /** Written by the ticking thread, read by any (status, the dashboard). */
  private volatile AutomaticDrops last = AutomaticDrops.INHERITED;
  private ScheduledExecutorService timer;

  /** @param writer receives the drops and, when a drop changed, the cause of the build it asks for */
  public AutoShedding(Clock clock, FleetLoad load, Supplier<PublishedView> view, BooleanSupplier leading,
      BiConsumer<AutomaticDrops, String> writer) {
    this.clock = clock;
    this.load = load;
    this.view = view;
    this.leading = leading;
    this.writer = writer;
  }

  /** Decides once per reporting interval from now on. */
  public AutoShedding start() {
    timer = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setNameFormat("auto-shedding").setDaemon(true).build());
    long every = load.interval().toMillis();
    timer.scheduleAtFixedRate(() -> {
      try {
        tick();
      } catch (RuntimeException e) {
        // One bad interval must not end shedding: the drop in force stays, the next interval decides again.
        log.error("automatic shedding failed this interval; the drops in force stay", e);
      }
    }, every, every, TimeUnit.MILLISECONDS);
    return this;
  }

  /** What one interval hands the writer. */
  private record Handover(AutomaticDrops drops, String cause) {}

  /**
   * One interval's decisions, handed to the writer. Called from one thread at a time (the timer's,
   * or a test's): the decisions' state is that thread's, and the hand-overs keep their order.
   */
  public void tick() {
    Handover h = decide();
    if (h != null) {
      writer.accept(h.drops(), h.cause());
    }
  }

  /** The decisions and the state they leave; null when there is nothing to hand over. */
  private Handover decide() {
    if (!leading.getAsBoolean()) {
      if (decided) {
        states.clear();
        decided = false;
        last = AutomaticDrops.INHERITED;
        return new Handover(AutomaticDrops.INHERITED, null);
      }
      return null;
    }
    PublishedView v = view.get();
    Snapshot epoch = v.snapshot();
    if (epoch == null) {
      return null;
    }
    Instant now = clock.instant();
    Map<String, AutomaticDrops.Entry> drops = new TreeMap<>();
    List<String> changes = new ArrayList<>();
    Map<String, State> seen = new HashMap<>();
    for (Map.Entry<String, List<EndpointSpec>> c : new TreeMap<>(epoch.endpoints()).entrySet()) {
      String cluster = c.getKey();
      ClusterSpec.Admission admission = v.clusters().apply(cluster).admission();
      if (!admission.enabled()) {
        continue;
      }
      State before = states.get(cluster);
      if (before == null) {
        before = State.inherited(AutomaticDrops.perMillion(epoch, cluster), now);
      }
      // A window its clients' reports do not yet cover is no evidence either way (DemandWindow).
      DemandWindow demand = load.demand(cluster, now);
      Decision d = AdmissionController.decide(settings(admission),
          new AdmissionController.Reading(EligibleCapacity.of(c.getValue(), admission.defaultCapacityRps()),
              demand.rps(), demand.settled()), before, now);
      seen.put(cluster, d.state());
      if (d.perMillion() > 0) {
        drops.put(cluster, new AutomaticDrops.Entry(d.perMillion(), d.cause()));
      }
      if (d.perMillion() != last.perMillion(cluster) || (!decided && d.perMillion() != before.perMillion())) {
        changes.add(cluster + ": " + d.cause());
        log.info("automatic shedding of {}: {}", cluster, d.cause());
      }
    }
    // Clusters that left admission (or the epoch) lose their drop.
    for (String cluster : last.byCluster().keySet()) {
      if (!seen.containsKey(cluster)) {
        changes.add(cluster + ": admission off, drop lifted");
      }
    }
    states.clear();
    states.putAll(seen);
    AutomaticDrops next = new AutomaticDrops(true, drops);
    boolean first = !decided;
    decided = true;
    last = next;
    return new Handover(next, changes.isEmpty() && !first ? null
        : "automatic shedding" + (changes.isEmpty() ? "" : " (" + String.join("; ", changes) + ")"));
  }

  /** The drops this leader decided last, with their causes (empty on a follower). */
  public AutomaticDrops current() {
    return last;
  }

  static Settings settings(ClusterSpec.Admission a) {
    return new Settings(a.effectiveMaxUtilization(), a.effectiveStep() * 10_000, a.effectiveWindow());
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
