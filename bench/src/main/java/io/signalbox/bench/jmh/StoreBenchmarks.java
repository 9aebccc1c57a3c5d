package io.signalbox.bench.jmh;

import io.signalbox.bench.Workload;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.snapshot.EnvelopeDelta;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.translate.Translation;
import io.signalbox.controlplane.translate.XdsTranslator;
import io.signalbox.model.DesiredState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.embedded.EmbeddedDatabase;
import io.signalbox.store.EpochSealer;
import io.signalbox.store.postgres.PostgresSnapshotStore;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * Persisting epochs at 10,000 clusters × 10 endpoints in the embedded PostgreSQL (synchronous
 * commit, as {@code store.url: embedded} runs it).
 *
 * <ul>
 *   <li>{@code appendChange}: a one-endpoint change, as the reconciler appends it: the delta is
 *       encoded ({@link EnvelopeDelta}) and written; one append in {@code MAX_DEPTH + 1} is a full
 *       checkpoint, so the average includes that share and the sample percentiles show both.
 *   <li>{@code appendFull}: seal, encode and write a full envelope (a first epoch, or a checkpoint).
 *   <li>{@code firstEpoch}: a first epoch from desired state to durable: validate, translate, build,
 *       check every resource against Envoy's rules, seal, encode, write.
 *   <li>{@code encodeDelta}, {@code encodeDeltaShared}: the delta encoding alone: a diff of the
 *       two snapshots' endpoint trees, which share every node off the changed cluster's path, when
 *       unchanged clusters hold equal lists or (shared) their parent's very list instances.
 *   <li>{@code loadLatest}: what a restart reads: a fresh store's {@code latest()} at the end of a
 *       full chain (a checkpoint and 64 deltas).
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx4g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class StoreBenchmarks {

  @Param({"10000"})
  int clusters;

  @Param({"10"})
  int endpoints;

  private static final int CHAIN = 64;

  private final XdsTranslator translator = new XdsTranslator();
  private final DesiredStateValidator validator = new DesiredStateValidator();
  private final EnvoyResourceValidator envoyRules = new EnvoyResourceValidator();
  private final Provenance provenance = Provenance.newBuilder().setCause("bench").build();

  private Path dataDir;
  private EmbeddedDatabase server;
  private PostgresSnapshotStore appendStore;

  private DesiredState after;
  private Snapshot snapshotBefore;
  private Snapshot snapshotAfter;
  /** snapshotAfter with the parent's endpoint lists for the clusters that did not change. */
  private Snapshot snapshotAfterShared;
  /** The state after the change, built on nothing: what a first epoch or a checkpoint encodes. */
  private SnapshotCandidate candidateFull;

  @Setup(Level.Trial)
  public void setUp() throws IOException, SQLException {
    Workload workload = new Workload(clusters, endpoints);
    Parsed<SignalboxConfig> config = ConfigLoader.parse(workload.config(18000, 8080, "memory", "100ms"),
        "bench.yaml", Path.of("."));
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) config).value();
    DesiredState before = cfg.desiredState(workload.endpointSpecs(0));
    after = cfg.desiredState(workload.endpointSpecs(1));
    Translation translationBefore = translator.translate(before);
    SnapshotBuilder builder = new SnapshotBuilder();
    snapshotBefore = builder.candidate(translationBefore.resources(), before.endpoints(), null, provenance)
        .seal(1, Instant.EPOCH);
    Translation translationAfter = translator.translate(after, translationBefore);
    snapshotAfter = builder.candidate(translationAfter.resources(), after.endpoints(), snapshotBefore, provenance)
        .seal(2, Instant.EPOCH);
    candidateFull = builder.candidate(translationAfter.resources(), after.endpoints(), null, provenance);
    java.util.Map<String, java.util.List<io.signalbox.model.EndpointSpec>> shared = new java.util.TreeMap<>();
    after.endpoints().forEach((cluster, list) -> shared.put(cluster,
        list.equals(snapshotBefore.endpoints().get(cluster)) ? snapshotBefore.endpoints().get(cluster) : list));
    snapshotAfterShared = builder.candidate(translationAfter.resources(), shared, snapshotBefore, provenance)
        .seal(2, Instant.EPOCH);

    dataDir = Files.createTempDirectory("signalbox-bench-postgres");
    server = EmbeddedDatabase.start(dataDir);
    appendStore = PostgresSnapshotStore.open(createDatabase("append"), EmbeddedDatabase.USER, "", Clock.systemUTC());
  }

  String createDatabase(String name) throws SQLException {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), EmbeddedDatabase.USER, "");
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    return server.jdbcUrl(name);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    appendStore.close();
    server.stop();
    try (Stream<Path> paths = Files.walk(dataDir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** Keeps the append database small: every append adds a row, a full one a few MB. */
  @TearDown(Level.Iteration)
  public void prune() {
    appendStore.prune(1, Set.of());
  }

  /** A database holding a checkpoint and 64 deltas, and a fresh store on it for every load. */
  @State(Scope.Benchmark)
  public static class Restart {
    private String url;
    private PostgresSnapshotStore store;

    @Setup(Level.Trial)
    public void fillChain(StoreBenchmarks bench) throws SQLException {
      url = bench.createDatabase("restart");
      try (PostgresSnapshotStore s = PostgresSnapshotStore.open(url, EmbeddedDatabase.USER, "", Clock.systemUTC())) {
        for (int i = 0; i <= CHAIN; i++) {
          s.append(bench.changeSealer());
        }
        if (s.lastEpoch() != CHAIN + 1) {
          throw new IllegalStateException("expected " + (CHAIN + 1) + " epochs, got " + s.lastEpoch());
        }
      }
    }

    /** Nothing remembered from the previous load, as after a restart. */
    @Setup(Level.Invocation)
    public void reopen() {
      store = PostgresSnapshotStore.open(url, EmbeddedDatabase.USER, "", Clock.systemUTC());
    }

    @TearDown(Level.Invocation)
    public void close() {
      store.close();
    }
  }

  /**
   * The one-endpoint change (snapshotBefore → snapshotAfter) appended again and again, each time
   * on the epoch appended before: the delta is what the reconciler's sealer offers for it.
   */
  EpochSealer<Long> changeSealer() {
    return new EpochSealer<>() {
      @Override
      public Long seal(long epoch) {
        return epoch;
      }

      @Override
      public SnapshotEnvelope envelope(Long epoch) {
        return snapshotAfter.toEnvelope().toBuilder().setEpoch(epoch).setParentEpoch(epoch - 1).build();
      }

      @Override
      public Optional<SnapshotEnvelope> delta(Long epoch) {
        return EnvelopeDelta.of(snapshotBefore, snapshotAfter)
            .map(d -> d.toBuilder().setEpoch(epoch).setParentEpoch(epoch - 1).build());
      }
    };
  }

  @Benchmark
  @BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
  public Long appendChange() {
    return appendStore.append(changeSealer());
  }

  /**
   * As the reconciler appends: after each published epoch, when the chain is half-way to its bound
   * ({@code SnapshotStore.checkpointDue}), its background queue encodes the epoch's full envelope
   * and writes it as a full copy ({@code SnapshotStore.checkpoint}) while the writer goes on
   * appending; one checkpoint in flight at a time, as one queue runs them. No measured append
   * waits for a checkpoint or has to write the whole state itself.
   */
  @State(Scope.Benchmark)
  public static class CheckpointAfterPublish {
    private final ExecutorService queue = Executors.newSingleThreadExecutor();
    private Future<?> inFlight = CompletableFuture.completedFuture(null);

    @TearDown(Level.Invocation)
    public void checkpointIfDue(StoreBenchmarks bench) {
      if (inFlight.isDone() && bench.appendStore.checkpointDue()) {
        long epoch = bench.appendStore.lastEpoch();
        inFlight = queue.submit(() -> bench.appendStore.checkpoint(
            bench.snapshotAfter.toEnvelope().toBuilder().setEpoch(epoch).setParentEpoch(epoch - 1).build()));
      }
    }

    @TearDown(Level.Iteration)
    public void awaitCheckpoint() throws Exception {
      inFlight.get();
    }

    @TearDown(Level.Trial)
    public void stop() {
      queue.shutdown();
    }
  }

  @Benchmark
  @BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
  public Long appendChangeCheckpointAfter(CheckpointAfterPublish checkpoints) {
    return appendStore.append(changeSealer());
  }

  @Benchmark
  public Snapshot appendFull() {
    return appendStore.append(fullSealer(candidateFull));
  }

  private static EpochSealer<Snapshot> fullSealer(SnapshotCandidate candidate) {
    return new EpochSealer<>() {
      @Override
      public Snapshot seal(long epoch) {
        return candidate.seal(epoch, Instant.EPOCH);
      }

      @Override
      public SnapshotEnvelope envelope(Snapshot sealed) {
        return sealed.toEnvelope();
      }
    };
  }

  @Benchmark
  public Snapshot firstEpoch() {
    if (!validator.validate(after).isValid()) {
      throw new IllegalStateException("invalid benchmark state");
    }
    Translation t = translator.translate(after);
    SnapshotCandidate candidate = new SnapshotBuilder().candidate(t.resources(), after.endpoints(), null, provenance);
    for (TranslatedResource r : t.resources()) {
      if (!envoyRules.validate(r.type() + " '" + r.name() + "'", r.message()).isEmpty()) {
        throw new IllegalStateException("invalid resource " + r.name());
      }
    }
    return appendStore.append(fullSealer(candidate));
  }

  @Benchmark
  public SnapshotEnvelope loadLatest(Restart restart) {
    return restart.store.latest().orElseThrow();
  }

  /** The delta encoding alone. */
  @Benchmark
  public SnapshotEnvelope encodeDelta() {
    return EnvelopeDelta.of(snapshotBefore, snapshotAfter).orElseThrow();
  }

  /** The delta encoding when unchanged clusters keep their parent's list instances (a == b). */
  @Benchmark
  public SnapshotEnvelope encodeDeltaShared() {
    return EnvelopeDelta.of(snapshotBefore, snapshotAfterShared).orElseThrow();
  }
}
