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
import io.signalbox.source.file.FileEndpointSource;
import io.signalbox.source.file.WatchedFile;
import io.signalbox.yaml.Parsed;
import io.signalbox.yaml.StrictYaml;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
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
 * An operator's edit of one endpoint in a 10,000-cluster × 10-endpoint YAML file, end to end inside
 * one process: the new version renamed into place → the epoch published. The real {@link
 * FileEndpointSource} (watch, read, hash, incremental re-read) feeds the real {@link Reconciler}
 * (in-memory store; only the xDS server is a recording double), both with Signalbox's defaults: a
 * 100 ms file quiet period and a 100 ms debounce. Before each edit the benchmark waits longer than
 * both, outside the measurement, as an edit after a quiet spell arrives; such an edit waits for
 * neither (the rename is read at once, the build starts on the leading edge).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx4g"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class FileToEpochBenchmarks {

  private static final Duration TIMEOUT = Duration.ofMinutes(1);

  @Param({"10000"})
  int clusters;

  @Param({"10"})
  int endpoints;

  /** {@code sources.fileQuietPeriod}. */
  @Param({"100ms"})
  String quietPeriod;

  /** {@code reconcile.debounce}. */
  @Param({"100ms"})
  String debounce;

  private final String[] texts = new String[2];
  private Path dir;
  private Path file;
  private Duration idle;
  private RecordingXdsServer xds;
  private Reconciler reconciler;
  private FileEndpointSource source;
  private long invocation;
  private long nextEpoch;

  @Setup(Level.Trial)
  public void setUp() throws IOException, InterruptedException {
    Workload workload = new Workload(clusters, endpoints);
    texts[0] = workload.endpointFile(0);
    texts[1] = workload.endpointFile(1);
    dir = Files.createTempDirectory("signalbox-file-epoch-bench");
    file = Files.writeString(dir.resolve("endpoints.yaml"), texts[0]);
    Duration quiet = StrictYaml.parseDuration(quietPeriod).orElseThrow();
    Duration window = StrictYaml.parseDuration(debounce).orElseThrow();
    idle = (quiet.compareTo(window) > 0 ? quiet : window).plusMillis(100);

    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(workload.config(18000, 8080, "memory", debounce, quietPeriod),
        "bench.yaml", Path.of("."));
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) parsed).value();
    Clock clock = Clock.systemUTC();
    xds = new RecordingXdsServer();
    EnvoyResourceValidator envoyRules = new EnvoyResourceValidator();
    InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
    reconciler = new Reconciler(clock, store, xds, new DesiredStateValidator(),
        new IncrementalTranslator(), envoyRules::validate, window, config.reconcile().maxDelay(), new SimpleMeterRegistry());
    reconciler.retainEpochs(2);
    reconciler.role(Role.standalone(store));
    reconciler.start(null);
    source = new FileEndpointSource(file, new WatchedFile.Timing(quiet, Duration.ofSeconds(1)));
    source.start(reconciler::offerSource);
    reconciler.offerConfig(DesiredStateTemplate.of(config.desiredStates(), config::clusterFor), "bench");
    Snapshot first = xds.awaitEpoch(1, TIMEOUT);
    if (first.resources(XdsType.CLUSTER).size() != clusters) {
      throw new IllegalStateException("the first epoch has " + first.resources(XdsType.CLUSTER).size()
          + " clusters, not " + clusters);
    }
    nextEpoch = first.epoch() + 1;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    source.close();
    reconciler.close();
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  /** The next version beside the file, then a quiet spell: an editor's work and an operator's pause. */
  @Setup(Level.Invocation)
  public void writeNextAndPause() throws IOException, InterruptedException {
    Files.writeString(dir.resolve("endpoints.yaml.next"), texts[(int) (++invocation % 2)]);
    Thread.sleep(idle.toMillis());
  }

  /** One endpoint's weight changed, renamed into place → that epoch published. */
  @Benchmark
  public Snapshot renameToPublishedEpoch() throws IOException, InterruptedException {
    Files.move(dir.resolve("endpoints.yaml.next"), file, StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    return xds.awaitEpoch(nextEpoch++, TIMEOUT);
  }
}
