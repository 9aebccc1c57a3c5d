package io.signalbox.controlplane.reconcile;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.lifecycle.EndpointRef;
import java.time.Instant;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.store.Fence;
import io.signalbox.store.RejectedCandidate;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.validation.Validator;
import io.signalbox.validation.Violation;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer: the only code that creates epochs. Inputs (the config, each source's full
 * state) land in latest-wins slots; the writer thread wakes, waits for the burst to settle
 * (debounce, bounded by a maximum delay) and builds from whatever is newest then, so a stale input
 * is skipped, never queued. Every build is all-or-nothing: validate, translate, check, persist,
 * then publish. The store work that only records what was published (audit, statuses, retention,
 * checkpoints) follows on its own thread ({@link AfterPublish}), not before the next epoch.
 */
public final class Reconciler implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
  private static final Duration STORE_RETRY = Duration.ofSeconds(1);

  private final Clock clock;
  private final SnapshotStore store;
  private final MeterRegistry meters;
  private final Publication publication;
  private final Interventions interventions;
  private final Candidates candidates;
  private final ConfigHolds configHolds = new ConfigHolds();

  // Inputs: written by any thread, read by the writer.
  private volatile DesiredStateTemplate config;
  private volatile ClusterSpecs clusterSpecs = new ClusterSpecs(null);
  private volatile String configCause = "startup";
  // How many configs were offered: tells a build of a fixed config file from one of the old config.
  private final java.util.concurrent.atomic.AtomicLong configOffers = new java.util.concurrent.atomic.AtomicLong();
  private final Map<String, SourceState> sources = new ConcurrentHashMap<>();
  private final ChangedSources changedSources = new ChangedSources();

  private final BuildTrigger trigger;

  // Written only by the writer thread; volatile so the API can read them.
  private final Rejections rejections;
  private volatile boolean storeAvailable = true;
  private volatile boolean pendingPublish;
  private final Thread writer;
  // Builds the writer began and finished, whatever came of them (published, unchanged, rejected,
  // held by a freeze): a build begun after an input changed has seen that input.
  private final java.util.concurrent.atomic.AtomicLong buildsStarted = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong buildsFinished = new java.util.concurrent.atomic.AtomicLong();

  // Replicas (DESIGN "Replicas"). Standalone: always leading, appends unfenced. A replica builds
  // only while it leads, and every append carries its lease term; while following, it serves the
  // epochs the leader committed. The election and the follower loop hand their news over in these
  // slots; the writer thread acts on them, so one thread publishes to the xDS server.
  private volatile boolean leading = true;
  // Among replicas every append is fenced: never decided by whether a lease happens to be held.
  private volatile boolean replicated;
  private volatile Fence fence;
  private volatile Fence takeOver;
  private volatile Committed committed;
  private volatile Runnable leaseLost = () -> { };

  /**
   * What the leader has committed, for a follower to serve.
   *
   * @param newest the newest committed epoch
   * @param waves wave -> the snapshot released to it (canary waves only; empty otherwise)
   */
  public record Committed(Snapshot newest, Map<Integer, Snapshot> waves) {}

  public Reconciler(Clock clock, SnapshotStore store, XdsServer xds, Validator validator, Translator translator,
      ResourceCheck resourceCheck, Duration debounce, Duration maxDelay, MeterRegistry meters) {
    this(clock, store, xds, validator, translator, resourceCheck, debounce, maxDelay, false, meters);
  }

  /**
   * @param staged release new epochs to the first rollout wave only; a {@code RolloutController}
   *     moves them on
   */
  public Reconciler(Clock clock, SnapshotStore store, XdsServer xds, Validator validator, Translator translator,
      ResourceCheck resourceCheck, Duration debounce, Duration maxDelay, boolean staged, MeterRegistry meters) {
    this.trigger = new BuildTrigger(debounce, maxDelay);
    this.publication = new Publication(xds, store, staged, this::retained);
    this.rejections = new Rejections(store, meters);
    this.interventions = new Interventions(clock, store, () -> signal("operator change"), publication::current,
        publication::snapshot, meters);
    this.candidates = new Candidates(clock, validator, translator, resourceCheck, interventions, publication,
        this::wakeAt);
    this.clock = clock;
    this.store = store;
    this.meters = meters;
    this.writer = new Thread(this::run, "reconciler");
    this.writer.setDaemon(true);
    meters.gauge("signalbox_epoch", publication, Publication::epoch);
    meters.gauge("signalbox_store_available", this, r -> r.storeAvailable ? 1 : 0);
    meters.gauge("signalbox_after_publish_backlog", publication, Publication::afterPublishBacklog);
    meters.more().counter("signalbox_resource_serializations", List.of(), candidates.builder(),
        SnapshotBuilder::serializations);
  }

  /**
   * Serves {@code restored} (the newest stored epoch) before any source has synced, so a restart
   * never hands clients an empty or older configuration, then starts the writer.
   */
  public void start(Snapshot restored) {
    // Before the first build: a build without the stored intent would undo drains and rollbacks.
    interventions.load();
    if (restored != null) {
      publication.restored(restored);
      log.info("serving stored epoch {} ({} resources) until sources have synced", restored.epoch(),
          restored.resourceCount());
    }
    writer.start();
  }

  public void offerConfig(DesiredStateTemplate newConfig, String cause) {
    config = newConfig;
    configOffers.incrementAndGet();
    configCause = cause;
    signal(cause);
  }

  public void offerSource(SourceState state) {
    sources.put(state.sourceId(), state);
    signal("source " + state.sourceId() + " generation " + state.generation());
  }

  /**
   * This process is one of several replicas: it builds nothing until {@link #lead}s, and tells
   * {@code onLeaseLost} when an append finds its lease gone. Call before {@link #start}.
   */
  public void replicated(Runnable onLeaseLost) {
    leading = false;
    replicated = true;
    leaseLost = onLeaseLost;
  }

  /** Whether this process builds and appends epochs (always, standalone). */
  public boolean leading() {
    return leading;
  }

  /**
   * This replica was elected: the writer reads the operator intent and the newest committed
   * epoch, then builds on top of it with every append fenced by {@code lease}, so its first epoch
   * never regresses what clients hold.
   */
  public void lead(Fence lease) {
    takeOver = lease;
    trigger.signalNow("elected leader with term " + lease.term());
  }

  /** The lease is lost: nothing more is built or appended from now on, whatever is in flight. */
  public void follow(String why) {
    if (leading) {
      log.warn("no longer leading ({}); serving what the leader commits from epoch {}", why, publication.epoch());
    }
    leading = false;
    fence = null;
  }

  /** A follower: serve what the leader committed (newest wins; the writer thread publishes it). */
  public void follow(Committed c) {
    committed = c;
    trigger.signalNow("epoch " + c.newest().epoch() + " committed by the leader");
  }

  /** On the writer thread: the newest committed epoch and the intent, then build fenced. */
  private void takeOver(Fence lease) {
    if (!interventions.load()) {
      // Fail closed, as at start: without the intent a new leader would undo what operators decided.
      takeOver = lease;
      trigger.retryAfter(STORE_RETRY, "taking over: operator intent");
      return;
    }
    Snapshot latest;
    try {
      latest = store.latest().map(Snapshot::fromEnvelope).orElse(null);
    } catch (StoreUnavailableException e) {
      takeOver = lease;
      storeDown(e);
      return;
    }
    if (latest != null) {
      publication.tookOver(latest);
    }
    fence = lease;
    leading = true;
    log.info("leading with term {}, building on epoch {}", lease.term(), publication.epoch());
  }

  /** Stores that a canary wave serves {@code epoch}, for the followers (see {@link Publication}). */
  public static void recordRelease(SnapshotStore store, int wave, long epoch) {
    Publication.recordRelease(store, wave, epoch);
  }

  /** Rebuilds from the current inputs even if nothing changed (reload, store recovery). */
  public void poke(String cause) {
    signal(cause);
  }

  public Snapshot published() {
    return publication.current();
  }

  /** The snapshot of a published epoch, from memory or the store; null if unknown or unreachable. */
  public Snapshot snapshot(long epoch) {
    return publication.snapshot(epoch);
  }

  /**
   * What has been published and decided, as readers see it: the admin API reads this, never the
   * writer's own state.
   */
  public PublishedView view() {
    Map<String, String> fingerprints = new TreeMap<>();
    ServedEndpoints served = candidates.served();
    List<HeldUpdates.Held> endpointHolds = served.held();
    endpointHolds.forEach(h -> {
      String f = served.heldFingerprint(h.cluster());
      if (f != null) {
        fingerprints.put(h.cluster(), f);
      }
    });
    String configFingerprint = configHolds.fingerprint();
    if (configFingerprint != null) {
      fingerprints.put(ConfigHolds.TARGET, configFingerprint);
    }
    List<HeldUpdates.Held> held = new java.util.ArrayList<>(configHolds.held());
    held.addAll(endpointHolds);
    return new PublishedView(publication.current(), status(), held, fingerprints, interventions.intent(),
        interventions.lastSafeByGroup(), publication.drainingSince(), this::clusterSpec, serializations());
  }

  /**
   * The cluster as currently configured: declared, or discovered with {@code clusterDefaults}.
   */
  public io.signalbox.model.ClusterSpec clusterSpec(String name) {
    DesiredStateTemplate admitted = configHolds.admitted();
    return clusterSpecs(admitted == null ? config : admitted).get(name);
  }

  private ClusterSpecs clusterSpecs(DesiredStateTemplate template) {
    ClusterSpecs specs = clusterSpecs;
    if (specs.template() != template) {
      specs = new ClusterSpecs(template);
      clusterSpecs = specs;
    }
    return specs;
  }

  /** Operator overrides, rollbacks and the freeze. */
  public Interventions interventions() {
    return interventions;
  }

  public ReconcileStatus status() {
    Map<String, SourceHealth> health = new TreeMap<>();
    Map<String, List<String>> problems = new TreeMap<>();
    sources.forEach((id, s) -> {
      health.put(id, s.health());
      if (!s.problems().isEmpty()) {
        problems.put(id, s.problems().stream().map(Violation::toString).toList());
      }
    });
    Intent intent = interventions.intent();
    return new ReconcileStatus(publication.epoch(), interventions.lastSafeEpoch(), interventions.frozen(),
        intent == null ? null : intent.freeze(), storeAvailable, pendingPublish, interventions.unreadable(),
        rejections.last(), health, problems, intent == null ? null : intent.ejectionFreeze(), heldEjections());
  }

  /** The ejections the freeze of ejections holds back now, by endpoint, and why (issue 31). */
  private Map<String, String> heldEjections() {
    Map<String, String> held = new TreeMap<>();
    candidates.served().heldEjections().forEach((ref, why) -> held.put(ref.toString(), why));
    return held;
  }

  /**
   * How many builds the writer has begun. With {@link #buildsFinished}: once more builds have
   * finished than had begun when an input changed, a build has seen the change.
   */
  public long buildsStarted() {
    return buildsStarted.get();
  }

  public long buildsFinished() {
    return buildsFinished.get();
  }

  /** Serializations done by the snapshot builder: one per new or changed resource, never per client. */
  public long serializations() {
    return candidates.builder().serializations();
  }

  private void signal(String cause) {
    trigger.signal(cause);
  }

  private void run() {
    while (true) {
      String cause;
      try {
        cause = trigger.await();
      } catch (InterruptedException e) {
        return;
      }
      if (cause == null) {
        return;
      }
      buildsStarted.incrementAndGet();
      try {
        Fence lead = takeOver;
        if (lead != null) {
          takeOver = null;
          takeOver(lead);
        }
        Committed c = committed;
        if (c != null && !leading) {
          committed = null;
          publication.served(c);
        }
        if (leading) {
          build(cause);
        }
      } catch (RuntimeException e) {
        // A bug in one build must not kill the only writer; the last epoch keeps serving.
        log.error("building a new epoch failed ({}); still serving epoch {}", cause, publication.epoch(), e);
      } finally {
        buildsFinished.incrementAndGet();
      }
    }
  }

  private void build(String signalled) {
    long offers = configOffers.get();
    // What this build sees of the sources, named in its cause and remembered once it is served.
    List<SourceState> seen = List.copyOf(sources.values());
    String cause = changedSources.cause(signalled, seen);
    DesiredStateTemplate offered = config;
    if (offered == null) {
      return;
    }
    Intent intent = interventions.intent();
    if (intent == null) {
      if (!interventions.load()) {
        // Fail closed: keep serving what clients hold, publish nothing until the intent is read.
        pendingPublish = true;
        trigger.retryAfter(STORE_RETRY, "operator intent retry");
        return;
      }
      intent = interventions.intent();
    }
    long started = System.nanoTime();
    DesiredStateTemplate template = configHolds.admit(offered, intent.confirmations(), clock.instant());
    Snapshot parent = publication.current();
    Candidates.Result next = candidates.next(template, clusterSpecs(template), sources.values(), intent, parent,
        provenance(cause));
    if (next instanceof Candidates.Refused refused) {
      // What the refused candidate scheduled (a lifecycle step due now) cannot be served either:
      // without this the writer rebuilt the same refusal every second (issue 29). The next input
      // change builds again and schedules what is due then.
      trigger.wakeIn(null);
      reject(cause, refused.errors());
      return;
    }
    Candidates.Built built = (Candidates.Built) next;
    rejections.accepted(clock.instant(), offers);
    configHolds.built(template);
    built.warnings().forEach(w -> log.warn("warning ({}): {}", cause, w));
    SnapshotCandidate candidate = built.candidate();
    if (candidate.sameContentAs(parent)) {
      changedSources.built(seen);
      log.debug("{}: content unchanged, no new epoch", cause);
      pendingPublish = false;
      return;
    }
    if (intent.frozen()) {
      // Validated and recorded above; held until unfreeze.
      pendingPublish = true;
      log.info("frozen by {} ({}): {} validated but not published; still serving epoch {}", intent.freeze().actor(),
          intent.freeze().reason(), cause, epochOf(parent));
      return;
    }
    Snapshot snapshot;
    try {
      Fence f = fence;
      if (f == null && replicated) {
        // Deposed while this build ran (the election thread cleared the lease): append nothing.
        // An unfenced append here would be a paused leader's write after its lease (invariant 4).
        log.info("{}: no longer leading; the epoch built is not appended", cause);
        return;
      }
      if (f == null) {
        snapshot = store.append(candidate.sealer(clock));
      } else {
        snapshot = store.append(candidate.sealer(clock), f).orElse(null);
        if (snapshot == null) {
          // Another replica leads now (or this one was paused past its lease): nothing was stored.
          storeUp();
          follow("the lease with term " + f.term() + " no longer holds");
          leaseLost.run();
          return;
        }
      }
    } catch (StoreUnavailableException e) {
      storeDown(e);
      return;
    }
    storeUp();
    changedSources.built(seen);
    publication.published(parent, snapshot, candidates.lastCauses(), clock.instant());
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    Timer.builder("signalbox_epoch_build").register(meters).record(Duration.ofNanos(System.nanoTime() - started));
    meters.counter("signalbox_epochs_published").increment();
    log.info("published epoch {} ({}): {} clusters, {} endpoints changed, {} resources, {} ms", snapshot.epoch(), cause,
        snapshot.resources(XdsType.CLUSTER).size(), candidate.changed(XdsType.ENDPOINT).size(),
        snapshot.resourceCount(), tookMs);
  }

  /** Updates the guards hold back (a config reload first, then mass removals, last eligible endpoints). */
  public List<HeldUpdates.Held> held() {
    List<HeldUpdates.Held> config = configHolds.held();
    List<HeldUpdates.Held> endpoints = candidates.served().held();
    if (config.isEmpty()) {
      return endpoints;
    }
    List<HeldUpdates.Held> all = new java.util.ArrayList<>(config);
    all.addAll(endpoints);
    return all;
  }

  /**
   * {@code reconcile.configRemovalPercent}: a config reload removing more than this share of a kind
   * of resource is held until confirmed ({@link #confirmConfigKey}).
   */
  public void configRemovalPercent(int percent) {
    configHolds.percent(percent);
  }

  /** The key a confirmation of a held config reload is stored under (never a cluster's name). */
  public static String confirmConfigKey() {
    return ConfigHolds.TARGET;
  }

  /** What retention keeps whatever its age: the last safe epoch and those quarantine restores from. */
  private Set<Long> retained() {
    Set<Long> keep = new java.util.HashSet<>();
    keep.add(interventions.lastSafeEpoch());
    Intent intent = interventions.intent();
    if (intent != null) {
      intent.quarantine().values().forEach(e -> keep.add(e.restoreEpoch()));
    }
    return keep;
  }

  /** {@code sources.precedence}: which source wins a conflicting endpoint. */
  public void sourcePrecedence(List<String> precedence) {
    candidates.sourcePrecedence(precedence);
  }

  /** How long a held mass removal must stay unchanged before it is applied without confirmation. */
  public void holdStableFor(Duration d) {
    candidates.served().holdStableFor(d);
  }

  /**
   * Whether every client holding {@code endpoint}'s cluster has ACKed an epoch in which the
   * endpoint was DRAINING: only then may it be removed (invariant 2).
   */
  public boolean drainAcknowledged(EndpointRef endpoint) {
    return publication.drainAcknowledged(endpoint);
  }

  /** The first epoch of the current run of epochs in which {@code endpoint} is DRAINING, or null. */
  public Long drainingSince(EndpointRef endpoint) {
    return publication.drainingSince(endpoint);
  }

  private void wakeAt(Instant at) {
    trigger.wakeIn(at == null ? null : Duration.between(clock.instant(), at));
  }

  private void reject(String cause, List<Violation> errors) {
    List<String> lines = errors.stream().map(Violation::toString).toList();
    boolean recorded = rejections.record(new RejectedCandidate(clock.instant(), cause, lines),
        Rejections.inputsOf(errors), Rejections.Origin.BUILD, configOffers.get());
    if (recorded) {
      log.warn("rejected input ({}), still serving epoch {}: {} {}:\n  {}", cause, publication.epoch(),
          lines.size(), lines.size() == 1 ? "violation" : "violations", String.join("\n  ", lines));
    } else {
      // The rejection in force, found again by a build for another reason: logged when it was new.
      log.debug("{}: the same {} as the rejection in force", cause,
          lines.size() == 1 ? "violation" : lines.size() + " violations");
    }
  }

  /**
   * Records input refused before it reached the writer (a config file that does not parse): it
   * creates no epoch, and the status API shows it like any rejected candidate, about the config,
   * until a later config is built.
   */
  public void rejectInput(RejectedCandidate rejected) {
    rejections.record(rejected, List.of("config"), Rejections.Origin.CONFIG, configOffers.get());
  }

  /**
   * Among replicas, for the replication thread: the store could not be read. A replica that is not
   * leading (a follower, or a leader deposed because it could not renew its lease in the outage)
   * has nothing of its own to append, so without this its status, {@code /readyz} and
   * {@code signalbox_store_available} would say the store is fine through the whole outage
   * (StoreOutageDrillIT). The leader's writer reports it itself.
   */
  public void storeUnreachable(StoreUnavailableException e) {
    if (!leading) {
      pendingPublish = true;
      if (storeAvailable) {
        storeAvailable = false;
        log.warn("store unavailable, publishing nothing new and still serving epoch {}: {}", publication.epoch(),
            e.getMessage());
      }
    }
  }

  /** Among replicas, for the replication thread: the store answered again. */
  public void storeReachable() {
    if (!leading && !storeAvailable) {
      storeUp();
    }
  }

  private void storeDown(StoreUnavailableException e) {
    pendingPublish = true;
    if (storeAvailable) {
      storeAvailable = false;
      log.warn("store unavailable, publishing nothing new and still serving epoch {}: {}", publication.epoch(),
          e.getMessage());
    }
    // Retry from the latest inputs, not before STORE_RETRY; whatever arrived meanwhile is included.
    trigger.retryAfter(STORE_RETRY, "store retry");
  }

  private void storeUp() {
    pendingPublish = false;
    if (!storeAvailable) {
      storeAvailable = true;
      log.warn("store available again; publishing resumes");
    }
  }

  /** Retention ({@code store.retainEpochs}): how many of the newest epochs the log keeps. */
  public void retainEpochs(int keep) {
    publication.retainEpochs(keep);
  }

  private Provenance provenance(String cause) {
    Provenance.Builder p = Provenance.newBuilder().setCause(cause);
    sources.forEach((id, s) -> p.putSourceGenerations(id, Long.toString(s.generation())));
    return p.build();
  }

  private static long epochOf(Snapshot s) {
    return s == null ? 0 : s.epoch();
  }

  @Override
  public void close() {
    trigger.stop();
    try {
      writer.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    publication.close();
    interventions.close();
  }
}
