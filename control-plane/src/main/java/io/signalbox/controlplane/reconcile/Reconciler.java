package io.signalbox.controlplane.reconcile;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.source.SourceState;
import io.signalbox.store.EpochLog;
import io.signalbox.store.RejectedCandidate;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.validation.Validator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
 *
 * <p>Over 400 lines because it is the writer's one public face: the build loop is about 130 of
 * them, and the rest are one-line entries (inputs offered, settings, views for the API, plan and
 * timeline) that each hand over to the class that owns the work ({@link Candidates},
 * {@link Publication}, {@link Interventions}, {@link Rehearsal}); splitting them off would only
 * move the delegation.
 */
public final class Reconciler implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
  private static final Duration STORE_RETRY = Duration.ofSeconds(1);

  private final Clock clock;
  private final MeterRegistry meters;
  private final Publication publication;
  private final Interventions interventions;
  private final Candidates candidates;
  private final ConfigHolds configHolds = new ConfigHolds();

  private final Inputs inputs = new Inputs();
  private ClusterSpecs clusterSpecs = new ClusterSpecs(null);

  private final BuildTrigger trigger;

  // Written only by the writer thread; volatile so the API can read them.
  private final Rejections rejections;
  private volatile EpochView epochView = EpochView.NONE;
  private volatile boolean pendingPublish;
  private final Thread writer;
  // Builds the writer began and finished, whatever came of them (published, unchanged, rejected,
  // held by a freeze): a build begun after an input changed has seen that input.
  private final java.util.concurrent.atomic.AtomicLong buildsStarted = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong buildsFinished = new java.util.concurrent.atomic.AtomicLong();

  // Whether this process builds and how it appends (replica/ decides: DESIGN "Replicas").
  private volatile WriterRole role;
  // Told of the view after every build, on the writer thread: it only hands the view on.
  private volatile java.util.function.Consumer<PublishedView> afterBuild = v -> { };

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
    this.interventions = new Interventions(clock, store, this::signal, publication::current,
        publication::snapshot, meters);
    this.candidates = new Candidates(clock, validator, translator, resourceCheck, publication::snapshot);
    this.clock = clock;
    this.meters = meters;
    this.writer = new ThreadFactoryBuilder().setNameFormat("reconciler").setDaemon(true).build().newThread(this::run);
    meters.gauge("signalbox_epoch", publication, Publication::epoch);
    meters.gauge("signalbox_store_available", this, r -> r.role == null || r.role.storeAvailable() ? 1 : 0);
    meters.gauge("signalbox_after_publish_backlog", publication, Publication::afterPublishBacklog);
    meters.more().counter("signalbox_resource_serializations", List.of(), candidates.builder(),
        SnapshotBuilder::serializations);
  }

  /**
   * Serves {@code restored} (the newest stored epoch) before any source has synced, so a restart
   * never hands clients an empty or older configuration, then starts the writer.
   */
  public void start(Snapshot restored) {
    if (role == null) {
      throw new IllegalStateException("the writer has no role: give it one (replica/Role) before start");
    }
    // Before the first build: a build without the stored intent would undo drains and rollbacks.
    interventions.load();
    if (restored != null) {
      publication.restored(restored);
      log.info("serving stored epoch {} ({} resources) until sources have synced", restored.epoch(),
          restored.resourceCount());
    }
    publishView();
    writer.start();
  }

  public void offerConfig(DesiredStateTemplate newConfig, String cause) {
    inputs.config(newConfig);
    signal(cause);
  }

  public void offerSource(SourceState state) {
    inputs.source(state);
    signal("source " + state.sourceId() + " generation " + state.generation());
  }

  /** Its place among replicas (replica/ decides it); before {@link #start}. */
  public void role(WriterRole r) {
    r.bind(new WriterPort(interventions, publication, trigger, STORE_RETRY, p -> pendingPublish = p));
    role = r;
  }

  /** Whether this process builds and appends epochs (always, standalone). */
  public boolean leading() {
    return role.leading();
  }

  /** Stores that a canary wave serves {@code epoch}, for the followers (see {@link Publication}). */
  public static void recordRelease(EpochLog store, int wave, long epoch) {
    Publication.recordRelease(store, wave, epoch);
  }

  /**
   * The automatic drops from now on ({@code admission/AutoShedding}); a non-null {@code cause} (a
   * drop changed) triggers a build, a null one only refreshes the causes the next epoch records.
   */
  public void automaticDrops(AutomaticDrops drops, String cause) {
    inputs.automaticDrops(drops);
    if (cause != null) {
      signal(cause);
    }
  }

  /** Told of what readers see after every build, on the writer thread; must not block (timeline/BuildWatch). */
  public void afterBuild(java.util.function.Consumer<PublishedView> listener) {
    afterBuild = listener;
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
    EpochView e = epochView;
    return new PublishedView(e.snapshot(), status(), e.held(), e.heldFingerprints(), interventions.intent(),
        interventions.lastSafeByGroup(), e.drainingSince(), e.clusters(), serializations());
  }

  /** On the writer thread (or before it starts): what readers see now, replaced as one value. */
  private void publishView() {
    DesiredStateTemplate admitted = configHolds.admitted();
    epochView = EpochView.next(epochView, publication.current(), clusterSpecs(admitted == null ? inputs.config() : admitted),
        candidates.served(), configHolds, publication.drainingSince());
  }

  private ClusterSpecs clusterSpecs(DesiredStateTemplate template) {
    ClusterSpecs specs = clusterSpecs;
    if (specs.template() != template) {
      specs = new ClusterSpecs(template);
      clusterSpecs = specs;
    }
    return specs;
  }

  /** What the writer sees now, to ask what it would make of other inputs without building ({@code signalbox plan}). */
  public Rehearsal rehearsal() {
    return new Rehearsal(new Rehearsal.Moment(inputs.config(), configHolds.admitted(), inputs.sources(),
        candidates.sourcePrecedence(), interventions.intent(), publication.current()), clock, this::snapshot,
        configHolds.percent(), candidates.served().holdStableFor());
  }

  /** Operator overrides, rollbacks and the freeze. */
  public Interventions interventions() {
    return interventions;
  }

  public ReconcileStatus status() {
    Intent intent = interventions.intent();
    boolean storeAvailable = role == null || role.storeAvailable();
    // The epoch readers see with the rest of the view, not one the writer is still recording.
    return new ReconcileStatus(epochOf(epochView.snapshot()), interventions.lastSafeEpoch(), interventions.frozen(),
        intent == null ? null : intent.freeze(), storeAvailable, pendingPublish, interventions.unreadable(),
        rejections.last(), inputs.health(), inputs.problems(), intent == null ? null : intent.ejectionFreeze(), heldEjections());
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
        if (role.settle()) {
          build(cause);
        }
      } catch (RuntimeException e) {
        // A bug in one build must not kill the only writer; the last epoch keeps serving.
        log.error("building a new epoch failed ({}); still serving epoch {}", cause, publication.epoch(), e);
      } finally {
        publishView();
        try {
          afterBuild.accept(view());
        } catch (RuntimeException e) {
          log.error("recording what build changed failed; the epoch is served all the same", e);
        }
        buildsFinished.incrementAndGet();
      }
    }
  }

  private void build(String signalled) {
    // What this build sees, named in its cause and remembered once it is served.
    Inputs.Taken taken = inputs.take(signalled);
    String cause = taken.cause();
    DesiredStateTemplate offered = taken.config();
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
    DesiredStateTemplate template = configHolds.admit(offered, intent.confirmations(), clock.instant(),
        t -> candidates.builds(t, taken.seen()));
    Snapshot parent = publication.current();
    // ACKs taken once: what arrives while this builds counts in the next build, not half in this one.
    Set<EndpointRef> acked = publication.drainsAcknowledged();
    Candidates.Result next = candidates.next(new Candidates.Input(template, clusterSpecs(template), taken.seen(), intent,
        parent, acked, taken.provenance(acked), taken.automaticDrops()));
    apply(next);
    if (next instanceof Candidates.Refused refused) {
      rejections.refusedBuild(clock.instant(), cause, refused.errors(), publication.epoch(), inputs.configOffers());
      return;
    }
    Candidates.Built built = (Candidates.Built) next;
    rejections.accepted(clock.instant(), taken.configOffers());
    configHolds.built(template);
    built.warnings().forEach(w -> log.warn("warning ({}): {}", cause, w));
    SnapshotCandidate candidate = built.candidate();
    if (candidate.sameContentAs(parent)) {
      inputs.built(taken);
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
      // Empty when this process no longer leads: the role has stepped down, nothing was stored.
      snapshot = role.append(cause, candidate.sealer(clock)).orElse(null);
    } catch (StoreUnavailableException e) {
      role.storeDown(e);
      return;
    }
    if (snapshot == null) {
      return;
    }
    role.storeUp();
    inputs.built(taken);
    publication.published(parent, snapshot, candidates.lastCauses(), clock.instant());
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    Timer.builder("signalbox_epoch_build").register(meters).record(Duration.ofNanos(System.nanoTime() - started));
    meters.counter("signalbox_epochs_published").increment();
    log.info("published epoch {} ({}): {} clusters, {} endpoints changed, {} resources, {} ms", snapshot.epoch(), cause,
        snapshot.resources(XdsType.CLUSTER).size(), candidate.changed(XdsType.ENDPOINT).size(),
        snapshot.resourceCount(), tookMs);
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

  /** What retention keeps whatever its age ({@link Interventions#epochsToKeep}). */
  private Set<Long> retained() {
    return interventions.epochsToKeep();
  }

  /** {@code sources.precedence}: which source wins a conflicting endpoint. */
  public void sourcePrecedence(List<String> precedence) {
    candidates.sourcePrecedence(precedence);
  }

  /** How long a held mass removal must stay unchanged before it is applied without confirmation. */
  public void holdStableFor(Duration d) {
    candidates.served().holdStableFor(d);
  }

  /** The one place a build's effects reach the operator intent and the trigger. */
  private void apply(Candidates.Result result) {
    Candidates.Effects effects = result.effects();
    interventions.lift(effects.lifted());
    interventions.forgetConfirmations(effects.spentConfirmations());
    // What a refused candidate scheduled (a lifecycle step due now) cannot be served either:
    // without this the writer rebuilt the same refusal every second (issue 29). The next input
    // change builds again and schedules what is due then.
    Instant at = result instanceof Candidates.Refused ? null : effects.nextWake();
    trigger.wakeIn(at == null ? null : Duration.between(clock.instant(), at));
  }

  /**
   * Records input refused before it reached the writer (a config file that does not parse): it
   * creates no epoch, and the status API shows it like any rejected candidate, about the config,
   * until a later config is built.
   *
   * @return false when the same problems are already the standing rejection (an editor saving the
   *     same broken file again): nothing new to record or to tell
   */
  public boolean rejectInput(RejectedCandidate rejected) {
    return rejections.record(rejected, List.of("config"), Rejections.Origin.CONFIG, inputs.configOffers());
  }

  /** Retention ({@code store.retainEpochs}): how many of the newest epochs the log keeps. */
  public void retainEpochs(int keep) {
    publication.retainEpochs(keep);
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
