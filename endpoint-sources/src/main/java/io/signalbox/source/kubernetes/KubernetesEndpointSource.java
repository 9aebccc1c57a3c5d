package io.signalbox.source.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.signalbox.model.EndpointSpec;
import io.signalbox.source.EndpointSource;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Endpoints from Kubernetes: {@code discovery.k8s.io/v1} EndpointSlices joined to their Services
 * (label {@code kubernetes.io/service-name}), watched through fabric8 informers in the configured
 * namespaces. One cluster per Service port, named by a {@link ClusterNameTemplate}
 * ({@code <namespace>/<service>:<port name or number>} by default).
 *
 * <p>Endpoint conditions map to lifecycle states as Envoy-facing control planes (Istio, Envoy
 * Gateway, Contour) read them:
 *
 * <table>
 *   <tr><th>conditions</th><th>state</th></tr>
 *   <tr><td>{@code terminating} true (serving or not)</td><td>DRAINING: no new work; gone once
 *       Kubernetes drops it from the slice</td></tr>
 *   <tr><td>{@code ready} true or unset</td><td>READY</td></tr>
 *   <tr><td>{@code ready} false, not terminating</td><td>WARMING</td></tr>
 * </table>
 *
 * {@code zone} becomes the endpoint's zone, weight is 1, and the origin is
 * {@code kubernetes:<namespace>/<slice>@<resourceVersion>}. An address:port listed by two slices
 * of one Service is kept once, in its most eligible state (READY over DRAINING over WARMING).
 *
 * <p>Every event only marks the state dirty; a single thread rebuilds the <i>whole</i> state from
 * the informers' caches after a short debounce and publishes it if it changed. Because nothing is
 * applied as a delta, relists, resyncs, reconnects and {@code 410 Gone} (all handled by the
 * informers) cannot leave a stale endpoint behind.
 *
 * <p>Health: FRESH once every informer has synced. fabric8 re-establishes a broken watch on its
 * own without telling the informer, so reachability is probed (a one-item list) every
 * {@link KubernetesSourceSettings.Timing#probeInterval()}; while the API server cannot be reached
 * or a watch is down, the last known endpoints are kept (fail static) and published as STALE with
 * a violation saying why, and FRESH again once it recovers. Never synced and unreachable is FAILED
 * with no endpoints. Each change of health is logged once, never once per retry.
 *
 * <p>A list that comes back empty is not trusted to wipe the source: when an informer's relist
 * (after {@code 410 Gone}, or a watch that could not resume) removes every Service or every
 * EndpointSlice it held and so leaves no endpoints where there were some, the last known
 * endpoints stay, STALE with a {@value #RULE_EMPTY_LIST} violation, until a list or watch shows
 * any object again. An API server that lost its storage, or answers a bad list, does this; a
 * real teardown arrives as watch events (each object deleted, seen), which are applied as usual.
 *
 * <p>This class is the source's state machine (health, problems, what it publishes, on one worker
 * thread); the client and the informers, and what their caches hold, are {@link Informers}.
 */
public final class KubernetesEndpointSource implements EndpointSource {

  private static final Logger log = LoggerFactory.getLogger(KubernetesEndpointSource.class);

  /** Rule id of the violation published after the worker's task failed, until a probe succeeds. */
  public static final String RULE_FAILED = "source.failed";

  /** Rule id of the violation published while the API server cannot be reached. */
  public static final String RULE_UNREACHABLE = "source.unreachable";

  /** Rule id of the violation published while a list came back empty where there were endpoints. */
  public static final String RULE_EMPTY_LIST = "source.empty-list";

  static final String ID = "kubernetes";

  private final KubernetesSourceSettings settings;
  private final ScheduledExecutorService worker;
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean rebuildScheduled = new AtomicBoolean();
  private volatile boolean closed;
  private volatile Informers informers;

  // Confined to the worker thread.
  private Consumer<SourceState> publish;
  private boolean synced;
  /** What the probe found: reachability and the watches; null before the first probe. */
  private SourceHealth reachability;
  private List<Violation> reachabilityProblems = List.of();
  private SourceHealth health;
  private List<Violation> problems = List.of();
  private Map<String, List<EndpointSpec>> endpoints = Map.of();
  private long generation;

  public KubernetesEndpointSource(KubernetesSourceSettings settings) {
    this.settings = settings;
    this.worker = Executors.newSingleThreadScheduledExecutor(
        new com.google.common.util.concurrent.ThreadFactoryBuilder().setNameFormat("kubernetes-source").setDaemon(true).build());
  }

  @Override
  public String id() {
    return ID;
  }

  /**
   * Starts the informers and returns without waiting for them: the first state is published once
   * they have synced (or, if the API server cannot be reached first, a FAILED one).
   *
   * @throws IllegalStateException when the client cannot be configured (unreadable kubeconfig)
   */
  @Override
  public void start(Consumer<SourceState> publish) {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException(ID + " already started");
    }
    worker.execute(() -> this.publish = publish);
    informers = new Informers(settings);
    informers.start(this::requestRebuild, () -> submit(this::probe))
        .whenComplete((ok, failed) -> submit(failed == null ? supervised(this::onSynced) : () -> {}));
    long probeMillis = settings.timing().probeInterval().toMillis();
    worker.scheduleWithFixedDelay(supervised(this::probe), probeMillis, probeMillis, TimeUnit.MILLISECONDS);
    log.info("{}: watching Services and EndpointSlices in {} at {}", ID, settings.namespaces(),
        informers.masterUrl());
  }

  @Override
  public void close() {
    closed = true;
    worker.shutdownNow();
    Informers current = informers;
    if (current != null) {
      current.close();
    }
  }

  /** Coalesces a burst of events into one rebuild, {@code debounce} after the first of them. */
  private void requestRebuild() {
    if (rebuildScheduled.compareAndSet(false, true)) {
      try {
        worker.schedule(supervised(this::rebuild), settings.timing().debounce().toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // closed meanwhile
      }
    }
  }

  private void submit(Runnable task) {
    try {
      worker.execute(task);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed meanwhile: nothing left to publish to
    }
  }

  /**
   * {@code task} on the worker, supervised: an exception or Error escaping a scheduled task cancels
   * its schedule without a word, so a failed probe used to stop every later one while the status
   * kept its last health (issue 29). A failure publishes FAILED with the reason and the last known
   * endpoints; the probe's schedule goes on, and the next probe that succeeds publishes FRESH.
   */
  private Runnable supervised(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        if (!io.signalbox.source.Restarts.restartable(e)) {
          throw e;
        }
        failed(e);
      }
    };
  }

  private void failed(Throwable e) {
    String reason = io.signalbox.source.Restarts.reason(e, settings.timing().probeInterval())
        + "; keeping the last known endpoints";
    log.error("{}: {}", ID, reason, e);
    health = SourceHealth.FAILED;
    problems = List.of(Violation.error(RULE_FAILED, ID, "", reason));
    if (publish == null) {
      return;
    }
    try {
      publish.accept(new SourceState(ID, ++generation, health, endpoints, problems));
    } catch (RuntimeException | Error again) {
      if (!io.signalbox.source.Restarts.restartable(again)) {
        throw again;
      }
      log.error("{}: publishing the failure failed too", ID, again);
    }
  }

  private void onSynced() {
    synced = true;
    probe();
  }

  private void rebuild() {
    rebuildScheduled.set(false);
    if (synced) {
      update();
    }
  }

  /** Decides the source's reachability from a probe and the informers, and publishes a change. */
  private void probe() {
    if (closed) {
      return;
    }
    String problem = null;
    Exception cause = null;
    try {
      informers.listOneSlice();
    } catch (KubernetesClientException e) {
      problem = "cannot reach the Kubernetes API server at " + informers.masterUrl()
          + "; keeping the last known endpoints";
      cause = e;
    }
    if (problem == null && synced) {
      problem = informers.watchProblem();
    }
    SourceHealth found = problem == null ? SourceHealth.FRESH : synced ? SourceHealth.STALE : SourceHealth.FAILED;
    if (problem != null && found != reachability) {
      log.warn("{}: {} ({})", ID, problem, cause == null ? "informer state" : rootMessage(cause));
    }
    reachability = found;
    reachabilityProblems = problem == null ? List.of() : List.of(Violation.error(RULE_UNREACHABLE, ID, "", problem));
    if (synced || problem != null) {
      update();
    }
  }

  /** Rebuilds the full state from the caches and publishes it if health or content changed. */
  private void update() {
    Map<String, List<EndpointSpec>> next = synced ? informers.endpoints() : endpoints;
    SourceHealth nextHealth = reachability == null ? SourceHealth.FRESH : reachability;
    List<Violation> nextProblems = reachabilityProblems;
    if (synced) {
      List<Violation> annotations = SliceMapping.annotationProblems(informers.slices());
      if (!annotations.isEmpty()) {
        nextProblems = new ArrayList<>(reachabilityProblems);
        nextProblems.addAll(annotations);
      }
    }
    String emptied = synced && next.isEmpty() && !endpoints.isEmpty() ? emptiedByList() : null;
    if (emptied != null) {
      next = endpoints;
      nextHealth = SourceHealth.STALE;
      List<Violation> both = new ArrayList<>(nextProblems);
      both.add(Violation.error(RULE_EMPTY_LIST, ID, "", emptied));
      nextProblems = both;
      if (!problems.equals(nextProblems)) {
        log.warn("{}: {}", ID, emptied);
      }
    }
    if (nextHealth == health && next.equals(endpoints) && nextProblems.equals(problems)) {
      return;
    }
    if (nextHealth == SourceHealth.FRESH && health != SourceHealth.FRESH) {
      log.info("{}: {} ({} endpoints in {} clusters)", ID, health == null ? "synced" : "recovered",
          count(next), next.size());
    }
    health = nextHealth;
    problems = nextProblems;
    endpoints = next;
    publish.accept(new SourceState(ID, ++generation, health, endpoints, problems));
  }

  /**
   * Why no endpoints are left, if a list emptied the Services or the EndpointSlices (rather than
   * watched deletions); null if not.
   */
  private String emptiedByList() {
    String what = informers.emptiedByList();
    if (what == null) {
      return null;
    }
    return "the API server at " + informers.masterUrl() + " listed " + what + " where there were " + count(endpoints)
        + " endpoints in " + endpoints.size() + (endpoints.size() == 1 ? " cluster" : " clusters")
        + "; keeping the last known endpoints until it lists some again";
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root == t ? String.valueOf(t.getMessage()) : t.getClass().getSimpleName() + " caused by " + root;
  }

  private static int count(Map<String, List<EndpointSpec>> endpoints) {
    return endpoints.values().stream().mapToInt(List::size).sum();
  }
}
