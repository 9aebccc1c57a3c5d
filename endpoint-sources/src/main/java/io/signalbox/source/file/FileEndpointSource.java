package io.signalbox.source.file;

import io.signalbox.model.EndpointSpec;
import io.signalbox.source.EndpointSource;
import io.signalbox.source.Restarts;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.SourceEndpointRules;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
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
 *
 * <p>Valid means what {@code signalbox validate} accepts of one file: it reads ({@link
 * EndpointFile}, no coercion) and meets {@link SourceEndpointRules} (fields, ranges, no address:port
 * twice). A file failing either is refused whole, with every problem at once: the merge would
 * otherwise serve the first of two entries for one address (issue 29). Something that is not a
 * regular file within the size limit, and a failure of the watcher's own thread, are FAILED too,
 * with the reason ({@link WatchedFile.Event.Unusable}).
 * A new version re-reads only the clusters whose text changed ({@link IncrementalEndpointFile}), and
 * unchanged clusters keep their list instances.
 */
public final class FileEndpointSource implements EndpointSource {

  private static final Logger log = LoggerFactory.getLogger(FileEndpointSource.class);

  /** Rule id of the violation published while the file is missing. */
  public static final String RULE_MISSING = "source.missing";

  /** Rule id of the violation published while the path holds no readable regular file, or the watcher failed. */
  public static final String RULE_UNUSABLE = "source.unusable";

  private final Path file;
  private final String id;
  private final WatchedFile.Timing timing;
  private final long maxBytes;
  private final Restarts restarts;
  // Confined to the thread delivering WatchedFile events (the caller of start(), then the watcher).
  private final IncrementalEndpointFile reader;
  private Map<String, List<EndpointSpec>> lastGood = Map.of();
  private boolean everGood;
  private boolean lastFresh = true;
  // Each cluster's list as last checked and what the check found: unchanged clusters keep their list
  // instances (IncrementalEndpointFile), so a one-endpoint edit of a large file checks one cluster.
  private Map<String, Checked> checked = Map.of();
  private long generation;
  private volatile Consumer<SourceState> publish;
  private final AtomicBoolean started = new AtomicBoolean();
  private volatile boolean closed;
  private volatile WatchedFile watched;

  public FileEndpointSource(Path file) {
    this(file, WatchedFile.Timing.DEFAULT);
  }

  public FileEndpointSource(Path file, WatchedFile.Timing timing) {
    this(file, timing, WatchedFile.DEFAULT_MAX_BYTES, Restarts.DEFAULT);
  }

  /**
   * @param maxBytes a larger file is refused (FAILED), not read
   * @param restarts how the watcher's thread restarts after a failure
   */
  public FileEndpointSource(Path file, WatchedFile.Timing timing, long maxBytes, Restarts restarts) {
    this.file = file.toAbsolutePath().normalize();
    this.id = "file:" + this.file;
    this.timing = timing;
    this.maxBytes = maxBytes;
    this.restarts = restarts;
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
      watched = WatchedFile.start(file, timing, maxBytes, restarts, this::onEvent);
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

  private record Checked(List<EndpointSpec> endpoints, List<Violation> errors) {}

  private void onEvent(WatchedFile.Event event) {
    String name = file.toString();
    SourceState state;
    if (event instanceof WatchedFile.Event.Content content) {
      Parsed<Map<String, List<EndpointSpec>>> parsed = reader.read(content.text());
      List<Violation> problems = parsed instanceof Parsed.Ok<Map<String, List<EndpointSpec>>> ok
          ? check(ok.value()) : parsed.violations();
      if (problems.isEmpty()) {
        lastGood = ((Parsed.Ok<Map<String, List<EndpointSpec>>>) parsed).value();
        everGood = true;
        state = new SourceState(id, ++generation, SourceHealth.FRESH, lastGood, List.of());
        if (!lastFresh) {
          log.info("endpoint file {} valid again: {} endpoints in {} clusters", name, count(lastGood), lastGood.size());
        } else {
          log.info("{}: read {} endpoints in {} clusters", id, count(lastGood), lastGood.size());
        }
      } else {
        state = new SourceState(id, ++generation, SourceHealth.FAILED, lastGood, problems);
        log.warn("endpoint file {} refused, keeping its last good endpoints: {} problem(s):\n  {}", name,
            problems.size(), String.join("\n  ", problems.stream().map(Violation::toString).toList()));
      }
    } else if (event instanceof WatchedFile.Event.Unusable unusable) {
      Violation problem = Violation.error(RULE_UNUSABLE, name, "", unusable.reason() + "; keeping the last good endpoints");
      state = new SourceState(id, ++generation, SourceHealth.FAILED, lastGood, List.of(problem));
    } else {
      Violation missing =
          Violation.error(RULE_MISSING, name, "", "file not found; keeping the last good endpoints");
      // Never read: nothing to be stale about, so FAILED (SourceHealth's "never synced").
      SourceHealth health = everGood ? SourceHealth.STALE : SourceHealth.FAILED;
      state = new SourceState(id, ++generation, health, lastGood, List.of(missing));
      log.warn("{}: file not found, keeping {} last good endpoints", id, count(lastGood));
    }
    lastFresh = state.health() == SourceHealth.FRESH;
    publish.accept(state);
  }

  /** {@link SourceEndpointRules} over every cluster, reusing the findings of unchanged lists. */
  private List<Violation> check(Map<String, List<EndpointSpec>> endpoints) {
    Map<String, Checked> next = new HashMap<>(endpoints.size() * 2);
    List<Violation> errors = new ArrayList<>();
    endpoints.forEach((cluster, list) -> {
      Checked before = checked.get(cluster);
      Checked now = before != null && before.endpoints() == list
          ? before : new Checked(list, SourceEndpointRules.check(cluster, list));
      next.put(cluster, now);
      errors.addAll(now.errors());
    });
    checked = next;
    return errors;
  }

  private static int count(Map<String, List<EndpointSpec>> endpoints) {
    return endpoints.values().stream().mapToInt(List::size).sum();
  }
}
