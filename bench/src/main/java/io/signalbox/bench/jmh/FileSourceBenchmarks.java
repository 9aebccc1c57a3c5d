package io.signalbox.bench.jmh;

import io.signalbox.bench.Workload;
import io.signalbox.model.EndpointSpec;
import io.signalbox.source.SourceState;
import io.signalbox.source.file.EndpointFile;
import io.signalbox.source.file.FileEndpointSource;
import io.signalbox.source.file.IncrementalEndpointFile;
import io.signalbox.source.file.WatchedFile;
import io.signalbox.yaml.Parsed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * The file source's share of a one-endpoint change at 10,000 clusters × 10 endpoints. {@code parse}
 * is {@link EndpointFile#parse} of the whole text (what every change cost before the file was read
 * incrementally, and what the first read and an invalid file still cost); {@code readChange} is
 * {@link IncrementalEndpointFile#read} of the next version, one endpoint changed, which re-reads
 * that cluster's block only; {@code fileChangeToSourceState} renames a new version of the file into
 * place and waits for the {@link FileEndpointSource} to publish its state (read, hash, decode,
 * incremental read, state), with no quiet period.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx4g"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 5)
public class FileSourceBenchmarks {

  private static final Duration TIMEOUT = Duration.ofMinutes(1);

  @Param({"10000"})
  int clusters;

  @Param({"10"})
  int endpoints;

  private final String[] texts = new String[2];
  private String json;
  private Path dir;
  private Path file;
  private FileEndpointSource source;
  // Guards `latest`; the benchmark thread waits on it for the watcher's publish.
  private final Object lock = new Object();
  private SourceState latest;
  private long invocation;
  private final IncrementalEndpointFile reader = new IncrementalEndpointFile("endpoints.yaml");
  private long reads;

  @Setup(Level.Trial)
  public void setUp() throws IOException, InterruptedException {
    Workload workload = new Workload(clusters, endpoints);
    texts[0] = workload.endpointFile(0);
    texts[1] = workload.endpointFile(1);
    json = workload.endpointFileJson(1);
    if (!parse(json, "endpoints.json").equals(parse(texts[1], "endpoints.json"))) {
      throw new IllegalStateException("the JSON and YAML files read differently");
    }
    reader.read(texts[0]);
    if (!reader.read(texts[1]).equals(EndpointFile.parse(texts[1], "endpoints.yaml")) || reader.lastRead().whole()) {
      throw new IllegalStateException("the incremental read is not what a whole read returns, or not incremental: "
          + reader.lastRead());
    }
    dir = Files.createTempDirectory("signalbox-file-bench");
    file = dir.resolve("endpoints.yaml");
    Files.writeString(file, texts[0]);
    source = new FileEndpointSource(file, new WatchedFile.Timing(Duration.ZERO, Duration.ofSeconds(1)));
    source.start(state -> {
      synchronized (lock) {
        latest = state;
        lock.notifyAll();
      }
    });
    awaitGeneration(1);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    source.close();
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  /** {@link EndpointFile#parse} of the whole 10,000-cluster file. */
  @Benchmark
  public Map<String, List<EndpointSpec>> parse() {
    return parse(texts[1], file.toString());
  }

  /** The same endpoints written as JSON, which the reader tokenizes without SnakeYAML. */
  @Benchmark
  public Map<String, List<EndpointSpec>> parseJson() {
    return parse(json, file.toString());
  }

  /** The next version (one endpoint's weight changed) through the incremental reader. */
  @Benchmark
  public Parsed<Map<String, List<EndpointSpec>>> readChange() {
    return reader.read(texts[(int) (reads++ % 2)]);
  }

  private static Map<String, List<EndpointSpec>> parse(String text, String name) {
    Parsed<Map<String, List<EndpointSpec>>> parsed = EndpointFile.parse(text, name);
    if (!(parsed instanceof Parsed.Ok<Map<String, List<EndpointSpec>>> ok)) {
      throw new IllegalStateException("the benchmark file does not parse: " + parsed.violations());
    }
    return ok.value();
  }

  /** Writes the next version beside the file, outside the measurement (an editor's work, not ours). */
  @Setup(Level.Invocation)
  public void writeNext() throws IOException {
    Files.writeString(dir.resolve("endpoints.yaml.next"), texts[(int) (++invocation % 2)]);
  }

  /** A new version renamed into place → the source's full state published (read, hash, parse). */
  @Benchmark
  public SourceState fileChangeToSourceState() throws IOException, InterruptedException {
    long before;
    synchronized (lock) {
      before = latest.generation();
    }
    Files.move(dir.resolve("endpoints.yaml.next"), file, StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    return awaitGeneration(before + 1);
  }

  private SourceState awaitGeneration(long generation) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    synchronized (lock) {
      while (latest == null || latest.generation() < generation) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new IllegalStateException("the file source did not publish generation " + generation + " within "
              + TIMEOUT);
        }
        lock.wait(Math.max(1, left / 1_000_000));
      }
      return latest;
    }
  }
}
