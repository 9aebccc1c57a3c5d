package io.signalbox.controlplane.fleet;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.NackStatus;
import io.signalbox.controlplane.xds.TypeStatus;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.store.ClientRecord;
import io.signalbox.store.NackEvent;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies what the xDS server knows about its clients into the store, so that client status and
 * NACKs outlive the process. Every {@link Settings#interval} it reads {@link XdsServer#clients()},
 * compares with what it last wrote, and writes only the rows that changed, in one batch; each new
 * NACK becomes one {@link NackEvent}; a stream that closed is written once more, disconnected.
 *
 * <p>Every change of endpoints moves the delivery fields of each client's rows: what was sent and
 * ACKed of the type that changed, and the {@code syncedEpoch} of the others (the client now holds
 * the new epoch). Those moves matter to other replicas, which decide SAFE, drains and waves from
 * these rows; while no other replica is alive (always, on the embedded store) nobody reads them, so
 * a row that already shows an ACK and moved only its delivery fields waits for its refresh, or for
 * a change that is not delivery (a NACK, a standing NACK cleared, a new type, the stream closing,
 * which writes how far it got), or for another replica to appear, whichever comes first. Standalone, a change of
 * endpoints writes no rows at all, where it wrote a thousand rows per thousand clients
 * (docs/benchmarks-history.md, issue 17, eighth part). A crash can leave rows a minute behind in delivery;
 * a restart marks them disconnected in any case.
 *
 * <p>The xDS server stays the source of truth: a store outage loses no state here, it only delays
 * the copy. A tick that fails is logged once per outage and the next tick writes the backlog,
 * because the diff is always taken against what the store is known to hold.
 *
 * <p>Ticks run on the recorder's own single thread, and once more on the closing thread after
 * that one has stopped, so the fields below are never touched by two threads at once.
 */
public final class ClientStatusRecorder implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ClientStatusRecorder.class);

  /**
   * @param replicaId which Signalbox instance this is, stored with every row (stream ids are unique
   *     only within one process)
   * @param interval how often to copy
   * @param refresh how often an unchanged connected row is written again anyway, so that its
   *     {@code lastSeenAt} shows the stream is still open
   */
  public record Settings(String replicaId, Duration interval, Duration refresh) {
    public Settings {
      Objects.requireNonNull(replicaId, "replicaId");
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("interval must be positive, was " + interval);
      }
      if (refresh.compareTo(interval) < 0) {
        throw new IllegalArgumentException("refresh must be at least the interval (" + interval + "), was " + refresh);
      }
    }

    /** This process ({@link #thisProcess()}), every 2 s, refreshing every minute. */
    public static Settings defaults() {
      return new Settings(thisProcess(), Duration.ofSeconds(2), Duration.ofMinutes(1));
    }
  }

  private final XdsServer xds;
  private final SnapshotStore store;
  private final Clock clock;
  private final Settings settings;
  private final ScheduledExecutorService scheduler;
  private final java.util.function.Supplier<java.util.Set<String>> otherReplicas;

  /** Connected rows as the store holds them, by key. */
  private final Map<ClientRecord.Key, ClientRecord> written = new HashMap<>();
  /** When the NACK last recorded as an event happened, per stream and type. */
  private final Map<ClientRecord.Key, Instant> nackRecorded = new HashMap<>();
  /** Whether the rows of the previous process have been marked disconnected yet. */
  private boolean previousDisconnected;
  private boolean failing;

  public ClientStatusRecorder(XdsServer xds, SnapshotStore store, Clock clock, Settings settings) {
    this(xds, store, clock, settings, java.util.Set::of);
  }

  /**
   * @param otherReplicas the other replicas alive now, whose rows a start leaves connected; none
   *     when standalone (every row not this process's own is from a process that is gone)
   */
  public ClientStatusRecorder(XdsServer xds, SnapshotStore store, Clock clock, Settings settings,
      java.util.function.Supplier<java.util.Set<String>> otherReplicas) {
    this.otherReplicas = otherReplicas;
    this.xds = xds;
    this.store = store;
    this.clock = clock;
    this.settings = settings;
    this.scheduler = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setNameFormat("client-status-recorder").setDaemon(true).build());
  }

  /**
   * Starts copying every interval. The first tick marks the rows a previous process left connected
   * as disconnected (those streams died with it), before writing any of this process's rows.
   */
  public ClientStatusRecorder start() {
    long millis = settings.interval().toMillis();
    scheduler.scheduleWithFixedDelay(this::tick, 0, millis, TimeUnit.MILLISECONDS);
    return this;
  }

  /** One copy, now. Never throws: a failure is logged and retried by the next tick. */
  void tick() {
    Instant now = clock.instant();
    List<ClientStatus> clients;
    try {
      clients = xds.clients();
    } catch (RuntimeException e) {
      // The server is closing; what it last reported is already written.
      log.debug("Could not read xDS clients", e);
      return;
    }
    // Asked every tick: a replica that appears reads these rows from its next refresh on.
    boolean read = !otherReplicas.get().isEmpty();
    Look look = look(clients, now, read);
    try {
      if (!previousDisconnected) {
        int marked = store.clients().disconnectAllBut(otherReplicas.get());
        previousDisconnected = true;
        if (marked > 0) {
          log.info("Marked {} client status rows of a previous process disconnected", marked);
        }
      }
      for (NackEvent e : look.nacks()) {
        store.clients().recordNack(e);
        // Noted one by one: a failure after some events keeps those from being written twice.
        nackRecorded.put(e.client(), e.at());
      }
      if (!look.changed().isEmpty()) {
        store.clients().save(look.changed());
        remember(look.changed());
      }
      // Only now that the store holds them: a failed tick looks at those clients again.
      seen = look.seen();
      if (failing) {
        failing = false;
        log.info("Client status persisted again ({} rows, {} NACK events written)", look.changed().size(),
            look.nacks().size());
      }
    } catch (StoreUnavailableException e) {
      if (!failing) {
        failing = true;
        log.warn("Client status not persisted, retrying every {} ms until the store is back: {}",
            settings.interval().toMillis(), e.getMessage());
      }
    } catch (RuntimeException e) {
      // A bug, not an outage; still retried, since the next tick starts from the same known state.
      if (!failing) {
        failing = true;
        log.error("Client status not persisted, retrying every {} ms", settings.interval().toMillis(), e);
      }
    }
  }

  /**
   * A stream's status as last looked at, the oldest {@code lastSeenAt} of its rows then, and whether
   * any row was held back (it moved only its delivery fields, and nobody read it): while the xDS
   * server answers with the same status instance, no row is due for a refresh and nothing held back
   * has become wanted, nothing of that stream can have changed, and it costs an identity check, not
   * four rows built and compared.
   */
  private record Seen(ClientStatus status, Instant oldestRow, boolean heldBack) {}

  /** What one tick writes, and the streams as they will have been written. */
  private record Look(List<ClientRecord> changed, List<NackEvent> nacks, Map<Long, Seen> seen) {}

  /** Streams by id, as of the last successful tick. */
  private Map<Long, Seen> seen = Map.of();

  /** @param read whether another replica reads these rows now */
  private Look look(List<ClientStatus> clients, Instant now, boolean read) {
    List<ClientRecord> changed = new ArrayList<>();
    List<NackEvent> nacks = new ArrayList<>();
    Map<Long, Seen> next = new HashMap<>(clients.size() * 2);
    Map<Long, ClientStatus> open = new HashMap<>(clients.size() * 2);
    for (ClientStatus c : clients) {
      open.put(c.streamId(), c);
      Seen before = seen.get(c.streamId());
      if (before != null && before.status() == c && !(read && before.heldBack())
          && Duration.between(before.oldestRow(), now).compareTo(settings.refresh()) < 0) {
        next.put(c.streamId(), before);
        continue;
      }
      if (before != null && !read
          && Duration.between(before.oldestRow(), now).compareTo(settings.refresh()) < 0
          && ClientRows.everyTypeAcked(before.status()) && ClientRows.sameButDelivery(before.status(), c)) {
        // Moved in delivery only since the last look, which wrote or held back every row of it (so
        // each stored row is the last look's but for delivery), none due, nobody reading them: the
        // rows built below would all be held back. Held back is marked without comparing delivery,
        // so a replica that appears makes the next look build and compare them.
        next.put(c.streamId(), new Seen(c, before.oldestRow(), true));
        continue;
      }
      Instant oldest = now;
      boolean heldBack = false;
      for (ClientRecord row : ClientRows.of(settings.replicaId(), c, now)) {
        ClientRecord was = written.get(row.key());
        boolean due = was == null || Duration.between(was.lastSeenAt(), now).compareTo(settings.refresh()) >= 0;
        // A stream's first ACK of a type is written at once: its row shows the client got a config.
        boolean deliveryOnly = !due && was.position().ackedEpoch() > 0 && ClientRows.sameButSeenAndDelivery(was, row);
        boolean delivered = deliveryOnly && !ClientRows.sameDelivery(was.position(), row.position());
        if (!deliveryOnly || delivered && read) {
          changed.add(row);
          continue;
        }
        heldBack |= delivered;
        if (was.lastSeenAt().isBefore(oldest)) {
          oldest = was.lastSeenAt();
        }
      }
      next.put(c.streamId(), new Seen(c, oldest, heldBack));
      newNacks(c, nacks);
    }
    for (ClientRecord before : written.values()) {
      ClientStatus stream = open.get(before.key().streamId());
      if (stream == null || !stream.nodeId().equals(before.key().nodeId())
          || !stream.types().containsKey(before.key().typeUrl())) {
        changed.add(lastLookedAt(before, now).disconnected(now));
      }
    }
    return new Look(changed, nacks, next);
  }

  /**
   * The row as the last tick saw it: what the store holds may lag behind in its delivery fields
   * (held back), and a stream's last row should say how far it got.
   */
  private ClientRecord lastLookedAt(ClientRecord written, Instant now) {
    Seen last = seen.get(written.key().streamId());
    if (last == null || !last.status().nodeId().equals(written.key().nodeId())) {
      return written;
    }
    ClientRecord row = ClientRows.of(settings.replicaId(), last.status(), written.key().typeUrl(), now);
    return row == null ? written : row;
  }

  private void newNacks(ClientStatus c, List<NackEvent> events) {
    for (Map.Entry<String, TypeStatus> e : c.types().entrySet()) {
      NackStatus nack = e.getValue().nack();
      if (nack == null) {
        continue;
      }
      ClientRecord.Key key = new ClientRecord.Key(settings.replicaId(), c.nodeId(), c.streamId(), e.getKey());
      if (!nack.at().equals(nackRecorded.get(key))) {
        events.add(ClientRows.nackEvent(key, c.nodeCluster(), nack));
      }
    }
  }

  private void remember(List<ClientRecord> saved) {
    for (ClientRecord row : saved) {
      if (row.connected()) {
        written.put(row.key(), row);
      } else {
        written.remove(row.key());
        nackRecorded.remove(row.key());
      }
    }
  }

  /**
   * Stops copying, then copies once more: close the xDS server first, and this last tick records
   * its clients as disconnected.
   */
  @Override
  public void close() {
    scheduler.shutdownNow();
    try {
      if (!scheduler.awaitTermination(5, TimeUnit.SECONDS)) {
        log.warn("Client status recorder did not stop within 5 s; skipping the last copy");
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    tick();
  }

  /**
   * {@code host/pid@start}: the host name (from {@code HOSTNAME}, else the resolver), this JVM's pid
   * and its start time — in a container the pid is usually 1 and stream ids restart at 0, so
   * without the start time a restarted replica would overwrite its predecessor's rows.
   */
  public static String thisProcess() {
    return ThisProcess.ID;
  }

  private static final class ThisProcess {
    static final String ID = hostName() + "/" + ProcessHandle.current().pid() + "@"
        + ProcessHandle.current().info().startInstant().map(i -> Long.toString(i.getEpochSecond())).orElse("0");

    private static String hostName() {
      String env = System.getenv("HOSTNAME");
      if (env != null && !env.isBlank()) {
        return env.trim();
      }
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        return "localhost";
      }
    }
  }
}
