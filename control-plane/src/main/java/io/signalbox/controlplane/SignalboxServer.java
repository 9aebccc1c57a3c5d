package io.signalbox.controlplane;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.signalbox.controlplane.admin.AdminBackend;
import io.signalbox.controlplane.admin.AdminServer;
import io.signalbox.controlplane.admin.AdminTls;
import io.signalbox.controlplane.admin.ReadModels;
import io.signalbox.controlplane.fleet.AttentionMetrics;
import io.signalbox.controlplane.fleet.FleetMetrics;
import io.signalbox.controlplane.fleet.FleetSampler;
import io.signalbox.controlplane.telemetry.DrainLoads;
import io.signalbox.controlplane.telemetry.FirstTraffic;
import io.signalbox.controlplane.telemetry.LoadSeries;
import io.signalbox.controlplane.telemetry.LoadView;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.RestartOnly;
import io.signalbox.controlplane.config.RolloutSettings;
import io.signalbox.controlplane.rollout.RolloutController;
import io.signalbox.controlplane.rollout.RolloutPolicy;
import io.signalbox.controlplane.xds.Waves;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.plan.Planner;
import io.signalbox.controlplane.fleet.ClientStatusRecorder;
import io.signalbox.controlplane.reconcile.DesiredStateTemplate;
import io.signalbox.controlplane.reconcile.IncrementalTranslator;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.replica.Replica;
import io.signalbox.controlplane.timeline.BuildWatch;
import io.signalbox.controlplane.timeline.DropChanges;
import io.signalbox.controlplane.timeline.SystemAudit;
import io.signalbox.controlplane.telemetry.FleetLoad;
import io.signalbox.controlplane.telemetry.LoadReporting;
import io.signalbox.controlplane.xds.AdsServer;
import io.signalbox.controlplane.xds.EdgeSettings;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.store.AuditEntry;
import io.signalbox.source.EndpointSource;
import io.signalbox.source.file.FileEndpointSource;
import io.signalbox.source.file.WatchedFile;
import io.signalbox.source.kubernetes.KubernetesEndpointSource;
import io.signalbox.source.registry.RegistrySource;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.RejectedCandidate;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreSettings;
import io.signalbox.store.Stores;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: wires store, xDS server, reconciler, sources and admin API, with no
 * framework. {@link #start} returns once the stored epoch (if any) is being served and every
 * endpoint file has been read once.
 */
public final class SignalboxServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SignalboxServer.class);

  private final Runnable reload;
  private final SnapshotStore store;
  private final AdsServer xds;
  private final Reconciler reconciler;
  private final RolloutController rollout;
  private final ClientStatusRecorder clientRecorder;
  private final List<EndpointSource> sources;
  private final WatchedFile configWatch;
  private final AdminServer admin;
  private final ReadModels reads;

  private final Replica replica;
  private final LoadReporting loadReporting;
  // Set once right after construction; closed before the writer.
  private io.signalbox.controlplane.admission.AutoShedding autoShedding;
  // Set once right after construction; closed after the writer and the replica, before the store.
  private SystemAudit systemAudit;
  // Set once right after construction when store.history is enabled; closed after the xDS server.
  private io.signalbox.controlplane.fleet.HistoryRecorder history;

  private SignalboxServer(Runnable reload, SnapshotStore store, AdsServer xds, Reconciler reconciler,
      RolloutController rollout, ClientStatusRecorder clientRecorder, List<EndpointSource> sources,
      WatchedFile configWatch, AdminServer admin, ReadModels reads, Replica replica, LoadReporting loadReporting) {
    this.replica = replica;
    this.loadReporting = loadReporting;
    this.reload = reload;
    this.store = store;
    this.xds = xds;
    this.reconciler = reconciler;
    this.rollout = rollout;
    this.clientRecorder = clientRecorder;
    this.sources = sources;
    this.configWatch = configWatch;
    this.admin = admin;
    this.reads = reads;
  }

  public static SignalboxServer start(Path configFile, SignalboxConfig config, StoreSettings storeSettings, Clock clock) {
    return start(configFile, config, storeSettings, clock, List.of());
  }

  /** The inputs were invalid at startup and nothing is stored to serve meanwhile. */
  public static final class NothingStoredToServe extends RuntimeException {
    NothingStoredToServe() {
      super("the inputs are invalid and the store holds no epoch to serve meanwhile");
    }
  }

  /**
   * @param storeSettings the config's {@code store} section, with the command line's or the
   *     environment's connection put in ({@link StoreSettings#withConnection})
   * @param inputProblems what is wrong with the inputs as they are now (endpoint files, the
   *     config's listeners, routes and clusters): with a stored epoch the server starts, serves it
   *     and reports them as a rejection (the writer publishes nothing until the inputs make a valid
   *     epoch: fail static); with none it throws {@link NothingStoredToServe} and leaves nothing
   *     running
   */
  public static SignalboxServer start(Path configFile, SignalboxConfig config, StoreSettings storeSettings, Clock clock,
      List<io.signalbox.validation.Violation> inputProblems) {
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    SnapshotStore store = Stores.open(storeSettings, clock);
    Snapshot restored = store.latest().map(Snapshot::fromEnvelope).orElse(null);
    if (!inputProblems.isEmpty() && restored == null) {
      store.close();
      throw new NothingStoredToServe();
    }
    RolloutPolicy rollout = rolloutPolicy(config.rollout());
    // Load reports name the replica that aggregated them; the same id the replica goes by.
    String replicaId = storeSettings.external() ? config.ha().replicaId() : ClientStatusRecorder.thisProcess();
    java.util.concurrent.atomic.AtomicReference<AdsServer> served = new java.util.concurrent.atomic.AtomicReference<>();
    LoadReporting loadReporting = new LoadReporting(clock, config.xds().loadReportingInterval(), replicaId,
        store.loadReports(), () -> served.get() == null ? null : served.get().current(), meters);
    AdsServer ads = AdsServer.start(config.xds().address(), config.xds().port(), rollout.waves(), clock, meters,
        EdgeSettings.from(config.xds()), refusal -> store.audit(new AuditEntry(refusal.at(),
            "xds-client " + refusal.peer(), "xds.auth_failure", refusal.node(), refusal.auditText())),
        List.of(loadReporting.service()));
    served.set(ads);
    // Before the first epoch is published: every response sent from it on is in the history.
    io.signalbox.controlplane.fleet.HistoryRecorder history = !storeSettings.history().enabled() ? null
        : new io.signalbox.controlplane.fleet.HistoryRecorder(store.history(), clock,
            io.signalbox.controlplane.fleet.HistoryRecorder.Settings.of(replicaId, storeSettings.history()), meters)
            .start();
    if (history != null) {
      ads.recordStreamEvents(history);
    }
    // Every serve on an external PostgreSQL is a replica of one control plane (DESIGN "Replicas").
    Replica replica = storeSettings.external()
        ? Replica.replicated(ads, store, config.ha(), rollout.waves(), clock)
        : Replica.standalone(ClientStatusRecorder.thisProcess(), ads, store, clock);
    XdsServer xds = replica.xds();
    EnvoyResourceValidator envoyRules = new EnvoyResourceValidator();
    Reconciler reconciler = new Reconciler(clock, store, xds, new DesiredStateValidator(), new IncrementalTranslator(),
        envoyRules::validate, config.reconcile().debounce(), config.reconcile().maxDelay(),
        !rollout.waves().waves().isEmpty(), meters);
    reconciler.holdStableFor(config.reconcile().holdStable());
    reconciler.sourcePrecedence(config.sources().precedence());
    reconciler.retainEpochs(config.store().retainEpochs());
    reconciler.configRemovalPercent(config.reconcile().configRemovalPercent());
    // The control plane's own entries in the audit trail, for the timeline (issue 43).
    SystemAudit systemAudit = new SystemAudit(store, clock);
    reconciler.afterBuild(new BuildWatch(systemAudit, reconciler::leading));
    replica.attach(reconciler, systemAudit);
    replica.bindTo(meters);
    reconciler.start(restored);
    if (!inputProblems.isEmpty()) {
      List<String> lines = inputProblems.stream().map(Violation::toString).toList();
      log.warn("starting with invalid inputs, serving stored epoch {} until they make a valid epoch: {} problem(s):"
          + "\n  {}", restored.epoch(), lines.size(), String.join("\n  ", lines));
      reconciler.rejectInput(new RejectedCandidate(clock.instant(), "startup", lines));
    }
    replica.start();
    RolloutController rolloutController = new RolloutController(clock, rollout, reconciler, xds, store);
    rolloutController.start(config.rollout().checkInterval());
    ClientStatusRecorder.Settings recording = ClientStatusRecorder.Settings.defaults();
    ClientStatusRecorder clientRecorder = new ClientStatusRecorder(ads, store, clock,
        new ClientStatusRecorder.Settings(replica.id(), recording.interval(), recording.refresh()),
        replica::otherLiveReplicas).start();

    List<EndpointSource> sources = new ArrayList<>();
    for (Path file : config.sources().files()) {
      sources.add(new FileEndpointSource(file, config.sources().fileTiming(), config.sources().fileMaxBytes(),
          io.signalbox.source.Restarts.DEFAULT));
    }
    if (config.sources().kubernetes().enabled()) {
      sources.add(new KubernetesEndpointSource(config.sources().kubernetes().toSourceSettings()));
    }
    RegistrySource registry = null;
    if (config.sources().registry().enabled()) {
      registry = new RegistrySource(new StoredLeases(store.leases(), replica::leading, clock),
          config.sources().registry().leaseTtl(), clock);
      sources.add(registry);
    }
    FirstSync firstSync = new FirstSync(
        restored == null ? Set.of() : sources.stream().map(EndpointSource::id).collect(Collectors.toSet()), reconciler);
    sources.forEach(source -> source.start(firstSync::offerSource));
    // After the sources' first reads, so a fresh start's first epoch already has their endpoints.
    firstSync.offerConfig(DesiredStateTemplate.of(config.desiredStates(), config::clusterFor), "startup");

    Settings settings = new Settings(config);
    Runnable reload = () -> offer(ConfigLoader.parse(configFile), configFile, reconciler, firstSync, settings, clock,
        "reload requested");
    WatchedFile configWatch;
    try {
      // The bytes the watcher settled are the ones parsed: reading the path again could see a
      // later, half-written file and would defeat the quiet period.
      configWatch = WatchedFile.start(configFile, event -> offer(read(event, configFile), configFile, reconciler,
          firstSync, settings, clock, "config file changed"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot watch " + configFile, e);
    }
    // The admin API's read models, each on its own thread: started here, like every other thread.
    FleetSampler sampler = new FleetSampler(xds, store, clock).start();
    FirstTraffic firstTraffic = FirstTraffic.of(() -> replica.view().snapshot(), store, loadReporting.fleetLoad(),
        clock).start();
    firstTraffic.bindTo(meters);
    FleetMetrics fleetMetrics = new FleetMetrics(xds, sampler::epochTimes, clock);
    fleetMetrics.bindTo(meters);
    // Served clusters only: the scrape adds the reported ones from its own single read.
    LoadSeries loadSeries = new LoadSeries(loadReporting.fleetLoad(), () -> LoadView.optedIn(replica.view()), clock);
    loadSeries.bindTo(meters);
    new AttentionMetrics(() -> replica.view().held(), sampler.convergence(), clock).bindTo(meters);
    ReadModels reads = new ReadModels(sampler, firstTraffic, fleetMetrics, loadSeries);
    AdminServer admin = AdminServer.start(config.admin(), AdminTls.start(config.admin().tls()),
        new AdminBackend(replica::view, reconciler.interventions(), xds, store, reload, meters, clock, registry,
            replica::status, settings::pendingRestart, loadReporting.fleetLoad(),
            DrainLoads.of(loadReporting.fleetLoad(), replica::view),
            new Planner(reconciler::rehearsal, xds, loadReporting.fleetLoad(), clock)),
        reads, System::getenv);
    SignalboxServer server = new SignalboxServer(reload, store, ads, reconciler, rolloutController, clientRecorder,
        sources, configWatch, admin, reads, replica, loadReporting);
    server.systemAudit = systemAudit;
    DropChanges automaticDrops = new DropChanges();
    server.history = history;
    // Automatic shedding (issue 31): the leader's drops from demand, one decision per reporting interval.
    server.autoShedding = new io.signalbox.controlplane.admission.AutoShedding(clock, loadReporting.fleetLoad(),
        reconciler::view, reconciler::leading, (drops, cause) -> {
          reconciler.automaticDrops(drops, cause);
          systemAudit.record(automaticDrops.next(drops));
        }).start();
    return server;
  }

  static RolloutPolicy rolloutPolicy(RolloutSettings settings) {
    List<Waves.Wave> waves = settings.waves().stream()
        .map(w -> new Waves.Wave(w.name(), java.util.Set.copyOf(w.nodeClusters()), w.metadata(), w.bake()))
        .toList();
    return new RolloutPolicy(new Waves(waves), settings.settle(), settings.rollbackOnNack());
  }

  /**
   * The settings the server started with, and the restart-only keys a reloaded config changed
   * (each applies at the next start; the reload applies the rest).
   */
  static final class Settings {
    private final SignalboxConfig running;
    private volatile List<RestartOnly.Change> pendingRestart = List.of();

    Settings(SignalboxConfig running) {
      this.running = running;
    }

    List<RestartOnly.Change> pendingRestart() {
      return pendingRestart;
    }

    void reloaded(SignalboxConfig configured) {
      List<RestartOnly.Change> changes = RestartOnly.changes(running, configured);
      if (!changes.equals(pendingRestart)) {
        changes.forEach(c -> log.warn("config {}: {}", configured.configSource(), c));
      }
      pendingRestart = changes;
    }
  }

  /** Hands a parsed config to the writer; an invalid one changes nothing and is reported. */
  static void offer(Parsed<SignalboxConfig> parsed, Path configFile, Reconciler reconciler, FirstSync firstSync,
      Settings settings, Clock clock, String cause) {
    if (parsed instanceof Parsed.Ok<SignalboxConfig> ok) {
      settings.reloaded(ok.value());
      firstSync.offerConfig(DesiredStateTemplate.of(ok.value().desiredStates(), ok.value()::clusterFor), cause);
    } else {
      List<String> lines = parsed.violations().stream().map(Violation::toString).toList();
      if (reconciler.rejectInput(new RejectedCandidate(clock.instant(), cause, lines))) {
        log.warn("config {} rejected ({}), still serving epoch {}:\n  {}", configFile, cause,
            reconciler.status().epoch(), String.join("\n  ", lines));
      } else {
        log.debug("config {} still rejected ({}) for the same {} problem(s)", configFile, cause, lines.size());
      }
    }
  }

  /** What the watcher saw: a FIFO, a directory or a device in place of the file is refused with its reason. */
  private static Parsed<SignalboxConfig> read(WatchedFile.Event event, Path configFile) {
    if (event instanceof WatchedFile.Event.Content c) {
      return ConfigLoader.parse(c.bytes(), configFile);
    }
    if (event instanceof WatchedFile.Event.Unusable u) {
      return Parsed.invalid(List.of(Violation.error("config.unusable", configFile.toString(), "",
          "the config file " + u.reason() + "; the last valid config stays in force")));
    }
    return missing(configFile);
  }

  private static Parsed<SignalboxConfig> missing(Path configFile) {
    return Parsed.invalid(List.of(Violation.error("config.missing", configFile.toString(), "",
        "the config file is missing; the last valid config stays in force")));
  }

  public void reload() {
    reload.run();
  }

  public int xdsPort() {
    return xds.port();
  }

  public int adminPort() {
    return admin.port();
  }

  public AdminServer admin() {
    return admin;
  }

  public Reconciler reconciler() {
    return reconciler;
  }

  /** This process's own xDS server and its own clients. */
  public AdsServer xds() {
    return xds;
  }

  /** This process's part among replicas (standalone: the only one). */
  public Replica replica() {
    return replica;
  }

  public RolloutController rollout() {
    return rollout;
  }

  public SnapshotStore store() {
    return store;
  }

  /** What the fleet's clients report about their traffic (LRS), summed over replicas. */
  public FleetLoad fleetLoad() {
    return loadReporting.fleetLoad();
  }

  @Override
  public void close() {
    admin.close();
    reads.sampler().close();
    reads.firstTraffic().close();
    configWatch.close();
    sources.forEach(EndpointSource::close);
    // Gives the lease up first, so another replica leads without waiting for it to expire.
    replica.close();
    rollout.close();
    if (autoShedding != null) {
      autoShedding.close();
    }
    reconciler.close();
    xds.close();
    loadReporting.close();
    if (systemAudit != null) {
      systemAudit.close();
    }
    // After the xDS server: its last copy records the closed streams as disconnected.
    clientRecorder.close();
    if (history != null) {
      // After the xDS server too: the streams' closings are in its queue.
      history.close();
    }
    store.close();
  }
}
