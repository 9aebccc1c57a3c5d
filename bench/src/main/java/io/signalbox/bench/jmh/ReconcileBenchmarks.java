package io.signalbox.bench.jmh;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.bench.Workload;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.reconcile.DesiredStateTemplate;
import io.signalbox.controlplane.reconcile.IncrementalTranslator;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.controlplane.replica.Role;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.EndpointSpec;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole single writer for one epoch at 10,000 clusters × 10 endpoints: a source offers its
 * full state with one endpoint's weight changed, and the benchmark waits until the resulting epoch
 * is published. The real {@link Reconciler} runs it (merge, lifecycle, guards, validation,
 * incremental translation, candidate, Envoy checks of what changed, seal and envelope into an
 * in-memory store, publish, audit), with no debounce; only the xDS server is a recording double.
 *
 * <p>Invocations alternate between two states, so every one is a new epoch. Work the writer does
 * after publishing (audit, drain bookkeeping, retention) delays the next invocation's epoch, so
 * the average is the writer's whole cost per epoch.
 *
 * <p>{@code sharing}: {@code identity} — clusters the change did not touch keep their list
 * instances, as a source that keeps its unchanged state would; {@code copy} — every cluster's list
 * is a new, equal instance, as the file source produces by re-parsing the whole file.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx4g"})
@Warmup(iterations = 5, time = 3)
@Measurement(iterations = 5, time = 5)
public class ReconcileBenchmarks {

  private static final String SOURCE = "file:endpoints.yaml";
  private static final Duration TIMEOUT = Duration.ofMinutes(1);

  @Param({"10000"})
  int clusters;

  @Param({"10"})
  int endpoints;

  @Param({"identity", "copy"})
  String sharing;

  /** {@code memory}, or {@code postgres}: the embedded PostgreSQL, as {@code store.url: embedded} runs. */
  @Param({"memory", "postgres"})
  String store;

  private java.nio.file.Path dataDir;
  private io.signalbox.store.embedded.EmbeddedDatabase database;
  private io.signalbox.store.SnapshotStore snapshotStore;

  private RecordingXdsServer xds;
  private Reconciler reconciler;
  private SourceState[] states;
  private long nextEpoch;

  @Setup(Level.Trial)
  public void setUp() throws InterruptedException, java.io.IOException {
    Workload workload = new Workload(clusters, endpoints);
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(workload.config(18000, 8080, "memory", "100ms"),
        "bench.yaml", Path.of("."));
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) parsed).value();
    // Read-only lists, as a source publishes them: SourceState keeps such lists as they are.
    Map<String, List<EndpointSpec>> before = new TreeMap<>();
    workload.endpointSpecs(0).forEach((cluster, list) -> before.put(cluster, List.copyOf(list)));
    Map<String, List<EndpointSpec>> after;
    if (sharing.equals("identity")) {
      after = new TreeMap<>(before);
      String changed = workload.clusterName(workload.change(0).cluster());
      after.put(changed, workload.endpointSpecs(1).get(changed));
    } else if (sharing.equals("copy")) {
      after = workload.endpointSpecs(1);
    } else {
      throw new IllegalArgumentException("sharing must be identity or copy, was " + sharing);
    }
    states = new SourceState[] {state(1, before), state(2, after)};

    Clock clock = Clock.systemUTC();
    xds = new RecordingXdsServer();
    EnvoyResourceValidator envoyRules = new EnvoyResourceValidator();
    if (store.equals("postgres")) {
      dataDir = java.nio.file.Files.createTempDirectory("signalbox-bench-reconcile");
      database = io.signalbox.store.embedded.EmbeddedDatabase.start(dataDir);
      snapshotStore = io.signalbox.store.postgres.PostgresSnapshotStore.open(database.jdbcUrl(),
          io.signalbox.store.embedded.EmbeddedDatabase.USER, "", clock);
    } else if (store.equals("memory")) {
      snapshotStore = new InMemorySnapshotStore(clock);
    } else {
      throw new IllegalArgumentException("store must be memory or postgres, was " + store);
    }
    reconciler = new Reconciler(clock, snapshotStore, xds, new DesiredStateValidator(),
        new IncrementalTranslator(), envoyRules::validate, Duration.ZERO, Duration.ZERO, new SimpleMeterRegistry());
    // The in-memory store keeps every retained envelope on the heap (PostgreSQL would not): keep few,
    // so the old generation does not fill with them and charge the writer for collecting it.
    reconciler.retainEpochs(2);
    reconciler.role(Role.standalone(snapshotStore));
    reconciler.start(null);
    reconciler.offerSource(states[0]);
    // As SignalboxServer offers it: one desiredStates() per config, whose per-cluster specs last for
    // the config's lifetime. config::desiredState would derive all 10,000 specs again every epoch.
    reconciler.offerConfig(DesiredStateTemplate.of(config.desiredStates(), config::clusterFor), "bench");
    Snapshot first = xds.awaitEpoch(1, TIMEOUT);
    if (first.resources(XdsType.CLUSTER).size() != clusters) {
      throw new IllegalStateException("the first epoch has " + first.resources(XdsType.CLUSTER).size()
          + " clusters, not " + clusters);
    }
    nextEpoch = first.epoch() + 1;
  }

  private static SourceState state(long generation, Map<String, List<EndpointSpec>> endpoints) {
    return new SourceState(SOURCE, generation, SourceHealth.FRESH, endpoints, List.of());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws java.io.IOException {
    reconciler.close();
    snapshotStore.close();
    if (database != null) {
      database.close();
      try (var paths = java.nio.file.Files.walk(dataDir)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** offerSource(one endpoint's weight changed) → that epoch published. */
  @Benchmark
  public Snapshot oneEndpointChange() throws InterruptedException {
    long epoch = nextEpoch++;
    reconciler.offerSource(states[(int) (epoch % 2 == 0 ? 1 : 0)]);
    return xds.awaitEpoch(epoch, TIMEOUT);
  }
}
