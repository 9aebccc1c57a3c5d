package io.signalbox.controlplane.fleet;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.store.EpochLog;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.StoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks at the fleet twice a second on its own thread and keeps what the dashboard plots: the
 * convergence of recent epochs ({@link ConvergenceHistory}) and, every {@link #LAG_EVERY}, a lag
 * sample ({@link LagHistory}, 15 minutes of them). A read-only consumer: it reads the xDS server's
 * client list (cached there until a stream changes) and the creation times of epochs, and writes
 * nothing anywhere. It also keeps those creation times, which {@link FleetMetrics} uses to export
 * lag in seconds without a store query per scrape.
 */
public final class FleetSampler implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(FleetSampler.class);
  static final Duration TICK = Duration.ofMillis(500);
  public static final Duration LAG_EVERY = Duration.ofSeconds(5);
  public static final Duration LAG_SPAN = Duration.ofMinutes(15);
  /** Creation times kept: enough to date the lag of a client 1,000 epochs behind, as the API does. */
  static final int EPOCH_TIMES = 1000;

  private final XdsServer xds;
  private final EpochLog store;
  private final Clock clock;
  private final ConvergenceHistory convergence = new ConvergenceHistory();
  private final LagHistory lag = new LagHistory((int) (LAG_SPAN.toMillis() / LAG_EVERY.toMillis()));
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setNameFormat("fleet-sampler").setDaemon(true).build());
  private final TreeMap<Long, Instant> times = new TreeMap<>(); // sampler thread only
  private volatile NavigableMap<Long, Instant> published = Collections.emptyNavigableMap();
  private Instant lastLag; // sampler thread only
  private boolean failing; // sampler thread only

  public FleetSampler(XdsServer xds, EpochLog store, Clock clock) {
    this.xds = xds;
    this.store = store;
    this.clock = clock;
  }

  public FleetSampler start() {
    thread.scheduleWithFixedDelay(this::tickSafely, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  public ConvergenceHistory convergence() {
    return convergence;
  }

  public LagHistory lag() {
    return lag;
  }

  /** Creation times of recent epochs (an immutable copy). */
  public NavigableMap<Long, Instant> epochTimes() {
    return published;
  }

  private void tickSafely() {
    try {
      tick();
      failing = false;
    } catch (RuntimeException e) {
      // A scheduled task that throws is never run again: log once per run of failures and go on.
      if (!failing) {
        log.warn("sampling the fleet failed; the dashboard's charts miss this moment", e);
      }
      failing = true;
    }
  }

  void tick() {
    Snapshot current = xds.current();
    if (current == null) {
      return;
    }
    learn(current);
    Instant now = clock.instant();
    NavigableMap<Long, Instant> known = published;
    List<ClientStatus> clients = xds.clients();
    boolean lagDue = lastLag == null || !now.isBefore(lastLag.plus(LAG_EVERY));
    // The same list instance (XdsServer#clients), epoch and creation times as at the last look: a
    // look would change nothing (shares reached are kept, counts are the same), so between changes
    // a tick costs three identity checks, not a thousand views and a sort.
    boolean same = clients == observedClients && known == observedTimes && current.epoch() == observedEpoch;
    if (same && !lagDue) {
      return;
    }
    List<Fleet.ClientView> views = clients.stream()
        .map(c -> Fleet.view(c, current.epoch(), known, now))
        .toList();
    if (!same) {
      convergence.observe(known, current.epoch(), views, now);
      observedClients = clients;
      observedTimes = known;
      observedEpoch = current.epoch();
    }
    if (lagDue) {
      lag.record(LagHistory.sample(now, current.epoch(), views));
      lastLag = now;
    }
  }

  // What the last convergence look saw; sampler thread only.
  private List<ClientStatus> observedClients;
  private NavigableMap<Long, Instant> observedTimes;
  private long observedEpoch;

  /**
   * Remembers when {@code current} was created. Epochs published between two looks are read from
   * the store (once, when the gap is seen), so lag and convergence are dated by their own epochs.
   */
  private void learn(Snapshot current) {
    if (times.containsKey(current.epoch())) {
      return;
    }
    long newestKnown = times.isEmpty() ? 0 : times.lastKey();
    if (current.epoch() > newestKnown + 1) {
      int missing = (int) Math.min(EPOCH_TIMES, current.epoch() - newestKnown - 1);
      try {
        for (EpochRecord r : store.epochs(missing, current.epoch())) {
          times.put(r.epoch(), r.createdAt());
        }
      } catch (StoreUnavailableException e) {
        // Dated by the epochs that are known: lag in seconds becomes a lower bound meanwhile.
      }
    }
    times.put(current.epoch(), current.createdAt());
    while (times.size() > EPOCH_TIMES) {
      times.pollFirstEntry();
    }
    published = Collections.unmodifiableNavigableMap(new TreeMap<>(times));
  }

  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
