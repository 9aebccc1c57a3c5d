package io.signalbox.source.file;

import io.signalbox.model.EndpointSpec;
import io.signalbox.source.EndpointSource;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.source.yaml.Parsed;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Endpoints from a watched YAML file ({@link EndpointFile}). Publishes FRESH with the file's content
 * when it is valid; FAILED with every problem when it is not, and STALE when it is missing — both
 * keeping the last good endpoints, because a typo or an unlucky delete must never empty a cluster.
 * A new version re-reads only the clusters whose text changed ({@link IncrementalEndpointFile}), and
 * unchanged clusters keep their list instances.
 */
public final class FileEndpointSource implements EndpointSource {

  private static final Logger log = LoggerFactory.getLogger(FileEndpointSource.class);

  /** Rule id of the violation published while the file is missing. */
  public static final String RULE_MISSING = "source.missing";

  private final Path file;
  private final String id;
  private final WatchedFile.Timing timing;
  // Confined to the thread delivering WatchedFile events (the caller of start(), then the watcher).
  private final IncrementalEndpointFile reader;
  private Map<String, List<EndpointSpec>> lastGood = Map.of();
  private boolean everGood;
  private long generation;
  private volatile Consumer<SourceState> publish;
  private final AtomicBoolean started = new AtomicBoolean();
  private volatile boolean closed;
  private volatile WatchedFile watched;

  public FileEndpointSource(Path file) {
    this(file, WatchedFile.Timing.DEFAULT);
  }

  public FileEndpointSource(Path file, WatchedFile.Timing timing) {
    this.file = file.toAbsolutePath().normalize();
    this.id = "file:" + this.file;
    this.timing = timing;
    this.reader = new IncrementalEndpointFile(this.file.toString());
  }

  @Override
  public String id() {
    return id;
  }

  /**
   * Reads the file and publishes its state before returning, then keeps watching it.
   *
   * @throws UncheckedIOException when the file cannot be watched at all (no inotify instance left)
   */
  @Override
  public void start(Consumer<SourceState> publish) {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException(id + " already started");
    }
    this.publish = publish;
    try {
      watched = WatchedFile.start(file, timing, this::onEvent);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot watch " + file, e);
    }
    if (closed) {
      watched.close(); // close() raced this start
    }
  }

  @Override
  public void close() {
    closed = true;
    WatchedFile current = watched;
    if (current != null) {
      current.close();
    }
  }

  private void onEvent(WatchedFile.Event event) {
    String name = file.toString();
    SourceState state;
    if (event instanceof WatchedFile.Event.Content content) {
      Parsed<Map<String, List<EndpointSpec>>> parsed =
          reader.read(content.text());
      if (parsed instanceof Parsed.Ok<Map<String, List<EndpointSpec>>> ok) {
        lastGood = ok.value();
        everGood = true;
        state = new SourceState(id, ++generation, SourceHealth.FRESH, lastGood, List.of());
        log.info("{}: read {} endpoints in {} clusters", id, count(lastGood), lastGood.size());
      } else {
        state = new SourceState(id, ++generation, SourceHealth.FAILED, lastGood, parsed.violations());
        log.warn("{}: invalid, keeping last good endpoints: {}", id, parsed.violations());
      }
    } else {
      Violation missing =
          Violation.error(RULE_MISSING, name, "", "file not found; keeping the last good endpoints");
      // Never read: nothing to be stale about, so FAILED (SourceHealth's "never synced").
      SourceHealth health = everGood ? SourceHealth.STALE : SourceHealth.FAILED;
      state = new SourceState(id, ++generation, health, lastGood, List.of(missing));
      log.warn("{}: file not found, keeping {} last good endpoints", id, count(lastGood));
    }
    publish.accept(state);
  }

  private static int count(Map<String, List<EndpointSpec>> endpoints) {
    return endpoints.values().stream().mapToInt(List::size).sum();
  }
}
