package io.signalbox.source.registry;

import io.signalbox.model.EndpointSpec;
import io.signalbox.source.EndpointSource;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.validation.SourceEndpointRules;
import io.signalbox.validation.Violation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST registry: endpoints that registered themselves with a lease, READY until the lease
 * runs out. Deregistered and expired endpoints simply leave this source's state; the reconciler
 * drains them before they disappear, like any endpoint a source stops reporting.
 *
 * <p>Leases live in {@link Leases} and survive restarts with their expiry times. Every sweep (each
 * second) deletes the leases due by then and re-reads the rest, so the state also follows leases
 * written by another replica. If the store cannot be reached, the last state is kept (fail static:
 * a database outage must not expire the fleet) and published STALE until a sweep succeeds.
 *
 * <p>All state is confined to one thread; registrations wait for it, so a registration and a sweep
 * never interleave and states are published in the order they were made.
 */
public final class RegistrySource implements EndpointSource {

  public static final String ID = "registry";
  /** Rule id of the problem published after a sweep failed, until one succeeds. */
  public static final String RULE_FAILED = "source.failed";

  /** Rule id of the problem published while the store cannot be reached. */
  public static final String RULE_UNAVAILABLE = "source.unavailable";
  public static final Duration SWEEP_EVERY = Duration.ofSeconds(1);

  private static final Logger log = LoggerFactory.getLogger(RegistrySource.class);
  private static final Comparator<Lease> ORDER = Comparator.comparing(Lease::cluster)
      .thenComparing(Lease::address).thenComparingInt(Lease::port);

  private final Leases leases;
  private final Duration leaseTtl;
  private final Clock clock;
  private final Duration sweepEvery;
  private final ScheduledExecutorService thread;
  private final AtomicBoolean started = new AtomicBoolean();

  // Confined to `thread`.
  private List<Lease> current = List.of();
  private SourceHealth health = SourceHealth.FAILED;
  private String problem = "not read yet";
  private String problemRule = RULE_UNAVAILABLE;
  private Map<String, List<EndpointSpec>> lastEndpoints;
  private SourceHealth lastHealth;
  private long generation;
  private Consumer<SourceState> publish;

  /** What became of a registration: registered (or renewed), or refused with nothing written. */
  public sealed interface Outcome {}

  /**
   * The lease as stored, whether it was new, and whether it changed what clients are sent (new, or
   * renewed with other content or by another registrant).
   */
  public record Registered(Lease lease, boolean created, boolean changed) implements Outcome {}

  /**
   * The registration breaks a rule that holds among a cluster's endpoints (an address another
   * registration answers on, a hash key another holds), as {@link SourceEndpointRules} says it.
   *
   * @param rule the rule's id, e.g. {@code duplicate.endpoint}
   * @param message names the other registration by its endpoint
   */
  public record Refused(String rule, String message) implements Outcome {}

  public RegistrySource(Leases leases, Duration leaseTtl, Clock clock) {
    this(leases, leaseTtl, clock, SWEEP_EVERY);
  }

  /** @param sweepEvery how often expired leases are dropped and the store re-read */
  public RegistrySource(Leases leases, Duration leaseTtl, Clock clock, Duration sweepEvery) {
    if (leaseTtl.isZero() || leaseTtl.isNegative()) {
      throw new IllegalArgumentException("leaseTtl must be > 0, was " + leaseTtl);
    }
    this.leases = leases;
    this.leaseTtl = leaseTtl;
    this.clock = clock;
    this.sweepEvery = sweepEvery;
    this.thread = Executors.newSingleThreadScheduledExecutor(
        new com.google.common.util.concurrent.ThreadFactoryBuilder().setNameFormat("registry-source").setDaemon(true).build());
  }

  @Override
  public String id() {
    return ID;
  }

  public Duration leaseTtl() {
    return leaseTtl;
  }

  /** Reads the stored leases, dropping expired ones, and publishes before returning; then sweeps. */
  @Override
  public void start(Consumer<SourceState> publish) {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException(ID + " already started");
    }
    on(() -> {
      this.publish = publish;
      sweep();
      return null;
    });
    thread.scheduleWithFixedDelay(this::sweep, sweepEvery.toMillis(), sweepEvery.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Registers or renews: the lease runs {@code leaseTtl} from now. Renewing with the same content
   * publishes nothing new; with other content the new content replaces the old. Refused, with
   * nothing written, when the cluster's registrations would break the endpoint rules together
   * (the rules every source meets before it offers its state: one endpoint per address).
   *
   * @param registeredBy the admin token's name; null or empty without tokens
   * @throws Leases.Unavailable when the store cannot be reached; nothing changed
   */
  public Outcome register(Registration r, String registeredBy) {
    return on(() -> {
      Instant now = clock.instant();
      Lease lease = new Lease(r.cluster(), r.address(), r.port(), r.zone(), r.weight(), r.metadata(), registeredBy,
          now, now.plus(leaseTtl), r.capacityRps(), r.naming());
      Refused refused = refusal(lease);
      if (refused != null) {
        return refused;
      }
      Lease stored = write(() -> leases.put(lease));
      Lease previous = current.stream().filter(l -> l.sameEndpoint(r.cluster(), r.address(), r.port()))
          .findFirst().orElse(null);
      boolean created = previous == null;
      boolean changed = created || !previous.toEndpoint().equals(stored.toEndpoint())
          || !previous.metadata().equals(stored.metadata());
      List<Lease> next = new ArrayList<>(current);
      next.removeIf(l -> l.sameEndpoint(r.cluster(), r.address(), r.port()));
      next.add(stored);
      replace(next);
      if (created) {
        log.info("{}: registered {}/{} until {}", ID, r.cluster(), r.endpoint(), stored.expiresAt());
      }
      return new Registered(stored, created, changed);
    });
  }

  /**
   * Why the cluster's registrations, {@code lease} among them (replacing its own earlier one), break
   * {@link SourceEndpointRules}, or null. Only what concerns {@code lease} refuses it: leases stored
   * by an older release (or another replica at the same instant) do not block an unrelated one.
   */
  private Refused refusal(Lease lease) {
    List<EndpointSpec> cluster = new ArrayList<>();
    for (Lease l : current) {
      if (l.cluster().equals(lease.cluster()) && !l.sameEndpoint(lease.cluster(), lease.address(), lease.port())) {
        cluster.add(l.toEndpoint());
      }
    }
    int at = cluster.size();
    cluster.add(lease.toEndpoint());
    String own = SourceEndpointRules.pathOf(lease.cluster(), at);
    for (Violation v : SourceEndpointRules.check(lease.cluster(), cluster)) {
      if (v.path().startsWith(own)) {
        String message = lease.cluster() + "/" + lease.endpoint() + ": " + v.message();
        // "also at [i]" indexes a list the registrant never saw: name the registration instead.
        for (int i = 0; i <= at; i++) {
          message = message.replace("(also at [" + i + "])", "(also " + lease.cluster() + "/" + cluster.get(i).key()
              + ")");
        }
        return new Refused(v.rule(), message);
      }
    }
    return null;
  }

  /**
   * Deregisters: the endpoint leaves this source's state (and is drained by the reconciler).
   *
   * @return false when there was no such registration
   * @throws Leases.Unavailable when the store cannot be reached; nothing changed
   */
  public boolean deregister(String cluster, String address, int port) {
    return on(() -> {
      boolean stored = write(() -> leases.remove(cluster, address, port));
      List<Lease> next = new ArrayList<>(current);
      boolean held = next.removeIf(l -> l.sameEndpoint(cluster, address, port));
      if (stored || held) {
        replace(next);
        log.info("{}: deregistered {}/{}:{}", ID, cluster, address, port);
      }
      return stored || held;
    });
  }

  /** The leases the source serves now, ordered by cluster, address and port. */
  public List<Lease> leases() {
    return on(() -> current);
  }

  public SourceHealth health() {
    return on(() -> health);
  }

  /** Sweeps now rather than at the next tick, and returns once done (for tests and operators). */
  public void sweepNow() {
    on(() -> {
      sweep();
      return null;
    });
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

  // --- on `thread` only -------------------------------------------------------------------------

  private void sweep() {
    try {
      sweepOnce();
    } catch (RuntimeException | Error e) {
      // Escaping, it would cancel the schedule without a word and leave the status FRESH for good.
      if (!io.signalbox.source.Restarts.restartable(e)) {
        throw e;
      }
      failed(e);
    }
  }

  private void sweepOnce() {
    Instant now = clock.instant();
    List<Lease> expired;
    List<Lease> stored;
    try {
      expired = leases.expire(now);
      stored = leases.all();
    } catch (Leases.Unavailable e) {
      unavailable(e);
      return;
    }
    expired.forEach(l -> log.info("{}: lease of {}/{} expired at {}", ID, l.cluster(), l.endpoint(), l.expiresAt()));
    if (health != SourceHealth.FRESH) {
      log.info("{}: {} leases read from the store", ID, stored.size());
    }
    health = SourceHealth.FRESH;
    problem = null;
    problemRule = RULE_UNAVAILABLE;
    // A lease written between expire() and all() may already be due; it goes at the next sweep.
    replace(stored);
  }

  private <T> T write(Callable<T> operation) throws Exception {
    try {
      return operation.call();
    } catch (Leases.Unavailable e) {
      unavailable(e);
      throw e;
    }
  }

  private void unavailable(Leases.Unavailable e) {
    if (health == SourceHealth.FRESH || lastHealth == null) {
      log.warn("{}: store unavailable, keeping {} leases: {}", ID, current.size(), e.getMessage());
    }
    if (health != SourceHealth.FAILED) {
      health = SourceHealth.STALE;
    }
    problem = "store unavailable; keeping the last known leases: " + e.getMessage();
    problemRule = RULE_UNAVAILABLE;
    publishIfChanged();
  }

  /**
   * A sweep failed (a bug, an Error): FAILED with the reason and the last known leases. The schedule
   * goes on, so the next sweep is the restart, {@code sweepEvery} later; one that succeeds is FRESH.
   */
  private void failed(Throwable e) {
    log.error("{}: sweep failed", ID, e);
    health = SourceHealth.FAILED;
    problem = io.signalbox.source.Restarts.reason(e, sweepEvery) + "; keeping the last known leases";
    problemRule = RULE_FAILED;
    try {
      publishIfChanged();
    } catch (RuntimeException | Error again) {
      if (!io.signalbox.source.Restarts.restartable(again)) {
        throw again;
      }
      lastHealth = null; // not published: try again with the next state
      log.error("{}: publishing the failure failed too", ID, again);
    }
  }

  private void replace(List<Lease> next) {
    current = next.stream().sorted(ORDER).toList();
    publishIfChanged();
  }

  /** Publishes when the endpoints or the health changed: a renewal that only moves the expiry is no news. */
  private void publishIfChanged() {
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
    current.forEach(l -> endpoints.computeIfAbsent(l.cluster(), c -> new ArrayList<>()).add(l.toEndpoint()));
    if (publish == null || (endpoints.equals(lastEndpoints) && health == lastHealth)) {
      return;
    }
    lastEndpoints = endpoints;
    lastHealth = health;
    List<Violation> problems = problem == null ? List.of() : List.of(Violation.error(problemRule, ID, "", problem));
    publish.accept(new SourceState(ID, ++generation, health, endpoints, problems));
  }

  /** Runs {@code work} on the source's thread and waits for it, rethrowing what it threw. */
  private <T> T on(Callable<T> work) {
    try {
      return thread.submit(work).get();
    } catch (RejectedExecutionException e) {
      throw new IllegalStateException(ID + " is closed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + ID, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
