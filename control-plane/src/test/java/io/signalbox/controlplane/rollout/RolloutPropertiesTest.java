package io.signalbox.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.reconcile.DesiredStateTemplate;
import io.signalbox.controlplane.reconcile.IncrementalTranslator;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.controlplane.replica.Role;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.InProcessAds;
import io.signalbox.controlplane.xds.Waves;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.source.FakeClock;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.store.SnapshotStore;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The rollout's safety claims over random interleavings of publishes, ACKs, NACKs, reconnects and
 * restarts across three clients, each refusing assignments with its own poison port, against the
 * real writer (reconciler, guards, quarantine, store) and the real per-stream protocol state
 * ({@link InProcessAds}): SAFE is never given to an epoch some connected client refuses part of,
 * no endpoint that left the fleet comes back, and epochs never regress.
 */
class RolloutPropertiesTest {

  private static final List<String> CLUSTERS = List.of("c0", "c1");
  private static final int[] POISON = {5, 6, -1};
  private static final EnvoyResourceValidator ENVOY_RULES = new EnvoyResourceValidator();

  sealed interface Op {}

  record Add(int cluster, int port) implements Op {}

  record Remove(int cluster, int port) implements Op {}

  /** Client answers everything it was sent: ACK, or NACK of an assignment with its poison port. */
  record Deliver(int client) implements Op {}

  record Check() implements Op {}

  record Reconnect(int client) implements Op {}

  /** The whole server stops and starts again on the same store; clients reconnect. */
  record Restart() implements Op {}

  /** Drain deadlines pass. */
  record TimePasses() implements Op {}

  @Provide
  Arbitrary<List<Op>> histories() {
    Arbitrary<Integer> cluster = Arbitraries.integers().between(0, CLUSTERS.size() - 1);
    Arbitrary<Integer> port = Arbitraries.integers().between(1, 6);
    Arbitrary<Integer> client = Arbitraries.integers().between(0, POISON.length - 1);
    Arbitrary<Op> op = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Combinators.combine(cluster, port).as(Add::new)),
        net.jqwik.api.Tuple.of(2, Combinators.combine(cluster, port).as(Remove::new)),
        net.jqwik.api.Tuple.of(6, client.map(Deliver::new)),
        net.jqwik.api.Tuple.of(4, Arbitraries.just(new Check())),
        net.jqwik.api.Tuple.of(1, client.map(Reconnect::new)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(new Restart())),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(new TimePasses())));
    return op.list().ofMinSize(5).ofMaxSize(30);
  }

  @Property(tries = 30, seed = "1313")
  void safeIsNeverRefusedNothingGoneComesBackEpochsNeverRegress(@ForAll("histories") List<Op> ops) {
    run(ops, true);
  }

  /**
   * Without automatic rollback a refused epoch stays current: only "holds" itself (an offer
   * adjusted around a NACK is not holding) keeps it from becoming SAFE.
   */
  @Property(tries = 30, seed = "2727")
  void withoutRollbackAnEpochSomeClientRefusesIsNeverSafe(@ForAll("histories") List<Op> ops) {
    run(ops, false);
  }

  private static void run(List<Op> ops, boolean rollbackOnNack) {
    try (World world = new World(rollbackOnNack)) {
      for (Op op : ops) {
        world.apply(op);
        world.checkInvariants(op);
      }
    }
  }

  /** Everything one try runs against; survives its own restarts through the store. */
  static final class World implements AutoCloseable {
    // Time stands still unless the test moves it, so only TimePasses ends a drain.
    final FakeClock clock = new FakeClock(Instant.parse("2026-12-01T00:00:00Z"));
    final SnapshotStore store = new InMemorySnapshotStore(clock);
    final Map<String, Map<Integer, Boolean>> source = new TreeMap<>();
    long generation;
    Server server;
    final List<InProcessAds.Client> clients = new ArrayList<>();
    // Invariant bookkeeping across restarts.
    long lastEpoch;
    int seenPublished;
    long lastSafe;
    final Set<String> gone = new HashSet<>();

    final boolean rollbackOnNack;

    World(boolean rollbackOnNack) {
      this.rollbackOnNack = rollbackOnNack;
      CLUSTERS.forEach(c -> source.put(c, new TreeMap<>(Map.of(1, true))));
      server = new Server(this, null);
      for (int k = 0; k < POISON.length; k++) {
        clients.add(server.connect(k));
      }
      server.step();
      checkPublished(new Check());
    }

    void apply(Op op) {
      if (op instanceof Add a) {
        source.get(CLUSTERS.get(a.cluster())).put(a.port(), true);
        server.offerSource();
      } else if (op instanceof Remove r) {
        source.get(CLUSTERS.get(r.cluster())).remove(r.port());
        server.offerSource();
      } else if (op instanceof Deliver d) {
        deliver(d.client());
      } else if (op instanceof Check) {
        server.rollout.check();
      } else if (op instanceof Reconnect r) {
        clients.get(r.client()).close();
        clients.set(r.client(), server.connect(r.client()));
      } else if (op instanceof Restart) {
        checkPublished(op);
        Snapshot stored = store.latest().map(Snapshot::fromEnvelope).orElse(null);
        server.close();
        server = new Server(this, stored);
        seenPublished = 0;
        for (int k = 0; k < clients.size(); k++) {
          clients.set(k, server.connect(k));
        }
      } else if (op instanceof TimePasses) {
        clock.advance(Duration.ofSeconds(31));
      }
      server.step();
    }

    private void deliver(int k) {
      InProcessAds.Client c = clients.get(k);
      // Answering one type may bring a response of another (make-before-break): answer until quiet.
      for (int round = 0; round < 8 && !c.unanswered().isEmpty(); round++) {
        for (var e : new TreeMap<>(c.unanswered()).entrySet()) {
          String refused = refusal(k, e.getValue());
          if (refused == null) {
            c.ack(e.getKey());
          } else {
            c.nack(e.getKey(), refused);
          }
        }
      }
    }

    /** Why client {@code k} rejects this response, or null if it accepts it. */
    static String refusal(int k, DiscoveryResponse r) {
      if (!r.getTypeUrl().equals(XdsType.ENDPOINT.typeUrl())) {
        return null;
      }
      for (Any any : r.getResourcesList()) {
        if (ports(any).contains(POISON[k])) {
          return "port " + POISON[k] + " is not allowed here";
        }
      }
      return null;
    }

    void checkInvariants(Op op) {
      checkPublished(op);
      checkSafe(op);
    }

    /** What this server published since the last look: epochs grow, nothing gone comes back. */
    void checkPublished(Op op) {
      List<Snapshot> all = server.ads.published();
      boolean restored = seenPublished == 0 && op instanceof Restart;
      for (Snapshot s : all.subList(seenPublished, all.size())) {
        if (restored) {
          // A restart serves the newest stored epoch again before building anything new.
          assertThat(s.epoch()).as("after %s: the restored epoch is the newest", op).isEqualTo(lastEpoch);
          restored = false;
          continue;
        }
        assertThat(s.epoch()).as("after %s: epochs only grow", op).isGreaterThan(lastEpoch);
        lastEpoch = s.epoch();
        checkNothingGoneCameBack(s, op);
      }
      seenPublished = all.size();
    }

    void checkSafe(Op op) {
      long safe = server.reconciler.interventions().lastSafeEpoch();
      if (safe > lastSafe) {
        Snapshot s = server.reconciler.snapshot(safe);
        for (int k = 0; k < clients.size(); k++) {
          for (XdsResource r : s.resources(XdsType.ENDPOINT).byName().values()) {
            assertThat(ports(r.any())).as("after %s: epoch %d is SAFE, but client %d refuses %s", op, safe, k, r.name())
                .doesNotContain(POISON[k]);
          }
        }
        assertThat(store.epoch(safe).orElseThrow().status()).isEqualTo(EpochStatus.SAFE);
        lastSafe = safe;
      }
    }

    private void checkNothingGoneCameBack(Snapshot s, Op op) {
      Set<String> offered = new TreeSet<>();
      for (XdsResource r : s.resources(XdsType.ENDPOINT).byName().values()) {
        ports(r.any()).forEach(p -> offered.add(r.name() + ":" + p));
      }
      for (String e : offered) {
        assertThat(gone).as("after %s: epoch %d offers %s again after it left", op, s.epoch(), e).doesNotContain(e);
      }
      Set<String> inSource = new TreeSet<>();
      source.forEach((c, ports) -> ports.keySet().forEach(p -> inSource.add(c + ":" + p)));
      gone.removeIf(inSource::contains);
      for (String c : CLUSTERS) {
        for (int p = 1; p <= 6; p++) {
          String e = c + ":" + p;
          if (!inSource.contains(e) && !offered.contains(e) && everOffered.contains(e)) {
            gone.add(e);
          }
        }
      }
      everOffered.addAll(offered);
    }

    final Set<String> everOffered = new HashSet<>();

    static Set<Integer> ports(Any any) {
      try {
        Set<Integer> ports = new TreeSet<>();
        for (var l : any.unpack(ClusterLoadAssignment.class).getEndpointsList()) {
          l.getLbEndpointsList().forEach(e -> ports.add(e.getEndpoint().getAddress().getSocketAddress().getPortValue()));
        }
        return ports;
      } catch (InvalidProtocolBufferException e) {
        throw new AssertionError(e);
      }
    }

    SourceState sourceState() {
      Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
      source.forEach((cluster, ports) -> endpoints.put(cluster, ports.keySet().stream()
          .map(p -> new EndpointSpec("10.0.0.1", p, "a", 1, 0, EndpointState.READY, "test")).toList()));
      return new SourceState("files", ++generation, SourceHealth.FRESH, endpoints, List.of());
    }

    @Override
    public void close() {
      server.close();
      store.close();
    }
  }

  /** One process's worth of Signalbox: writer, xDS state and rollout, over the world's store. */
  static final class Server implements AutoCloseable {
    final World world;
    final InProcessAds ads;
    final Reconciler reconciler;
    final RolloutController rollout;

    Server(World world, Snapshot restored) {
      this.world = world;
      ads = new InProcessAds(world.clock);
      reconciler = new Reconciler(world.clock, world.store, ads, new DesiredStateValidator(),
          new IncrementalTranslator(), ENVOY_RULES::validate, Duration.ofMillis(1), Duration.ofMillis(5),
          new SimpleMeterRegistry());
      reconciler.role(Role.standalone(world.store));
      reconciler.start(restored);
      SignalboxConfig config = new SignalboxConfig(null, null, null, null, null, null, null, null, List.of(), List.of(),
          CLUSTERS.stream().map(ClusterSpec::named).toList());
      reconciler.offerSource(world.sourceState());
      reconciler.offerConfig(DesiredStateTemplate.of(config.desiredStates(), config::clusterFor), "startup");
      rollout = new RolloutController(world.clock, new RolloutPolicy(Waves.NONE, Duration.ZERO, world.rollbackOnNack), reconciler,
          ads, world.store);
    }

    InProcessAds.Client connect(int k) {
      InProcessAds.Client c = ads.connect("client-" + k);
      c.subscribe(XdsType.CLUSTER, List.of());
      c.subscribe(XdsType.ENDPOINT, CLUSTERS);
      return c;
    }

    void offerSource() {
      reconciler.offerSource(world.sourceState());
    }

    /** Lets the writer catch up: a build begun after everything so far has finished. */
    void step() {
      long begun = reconciler.buildsStarted();
      reconciler.poke("step");
      await().atMost(Duration.ofSeconds(30)).until(() -> reconciler.buildsFinished() > begun);
    }

    @Override
    public void close() {
      rollout.close();
      reconciler.close();
    }
  }
}
