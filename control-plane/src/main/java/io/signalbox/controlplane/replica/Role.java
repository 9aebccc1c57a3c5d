package io.signalbox.controlplane.replica;

import io.signalbox.controlplane.reconcile.WriterRole;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.store.EpochLog;
import io.signalbox.store.EpochSealer;
import io.signalbox.store.Fence;
import io.signalbox.store.StoreUnavailableException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer's role (DESIGN "Replicas"). Standalone: always leading, appends unfenced. A replica
 * builds only while it leads, and every append carries its lease term; while following, it serves
 * the epochs the leader committed. The election and the follower loop hand their news over in
 * these slots; the writer thread acts on them ({@link #settle}), so one thread publishes to the
 * xDS server. The store's health, as the writer and the replication thread find it, is kept here.
 */
public final class Role implements WriterRole {

  private static final Logger log = LoggerFactory.getLogger(Role.class);

  private final EpochLog store;
  // Among replicas every append is fenced: never decided by whether a lease happens to be held.
  private final boolean replicated;
  private final Runnable leaseLost;
  private Writer writer;
  private volatile boolean leading;
  private volatile Fence fence;
  private volatile Fence takeOver;
  private volatile Committed committed;
  private volatile boolean storeAvailable = true;

  private Role(EpochLog store, boolean replicated, Runnable leaseLost) {
    this.store = store;
    this.replicated = replicated;
    this.leaseLost = leaseLost;
    this.leading = !replicated;
  }

  /** The only writer: always leading, appends unfenced. */
  public static Role standalone(EpochLog store) {
    return new Role(store, false, () -> { });
  }

  /**
   * One of several replicas: builds nothing until {@link #lead}, and tells {@code onLeaseLost} when
   * an append finds its lease gone.
   */
  static Role replicated(EpochLog store, Runnable onLeaseLost) {
    return new Role(store, true, onLeaseLost);
  }

  @Override
  public void bind(Writer w) {
    this.writer = w;
  }

  @Override
  public boolean leading() {
    return leading;
  }

  @Override
  public boolean storeAvailable() {
    return storeAvailable;
  }

  /**
   * This replica was elected: the writer reads the operator intent and the newest committed
   * epoch, then builds on top of it with every append fenced by {@code lease}, so its first epoch
   * never regresses what clients hold.
   */
  void lead(Fence lease) {
    takeOver = lease;
    writer.signalNow("elected leader with term " + lease.term());
  }

  /** The lease is lost: nothing more is built or appended from now on, whatever is in flight. */
  void follow(String why) {
    if (leading) {
      log.warn("no longer leading ({}); serving what the leader commits from epoch {}", why, writer.epoch());
    }
    leading = false;
    fence = null;
    // An election not yet acted on is void too: without this the writer's next turn would take
    // over with the lease just lost and report leading until its first append is fenced out.
    takeOver = null;
  }

  /** A follower: serve what the leader committed (newest wins; the writer thread publishes it). */
  void follow(Committed c) {
    committed = c;
    writer.signalNow("epoch " + c.newest().epoch() + " committed by the leader");
  }

  @Override
  public boolean settle() {
    Fence lead = takeOver;
    if (lead != null) {
      takeOver = null;
      takeOver(lead);
    }
    Committed c = committed;
    if (c != null && !leading) {
      committed = null;
      writer.served(c);
    }
    return leading;
  }

  /** On the writer thread: the newest committed epoch and the intent, then build fenced. */
  private void takeOver(Fence lease) {
    if (!writer.loadIntent()) {
      // Fail closed, as at start: without the intent a new leader would undo what operators decided.
      takeOver = lease;
      writer.retry("taking over: operator intent");
      return;
    }
    Snapshot latest;
    try {
      latest = store.latest().map(Snapshot::fromEnvelope).orElse(null);
    } catch (StoreUnavailableException e) {
      takeOver = lease;
      storeDown(e);
      return;
    }
    if (latest != null) {
      writer.tookOver(latest);
    }
    fence = lease;
    leading = true;
    log.info("leading with term {}, building on epoch {}", lease.term(), writer.epoch());
  }

  @Override
  public Optional<Snapshot> append(String cause, EpochSealer<Snapshot> sealer) {
    Fence f = fence;
    if (f == null && replicated) {
      // Deposed while this build ran (the election thread cleared the lease): append nothing.
      // An unfenced append here would be a paused leader's write after its lease (invariant 4).
      log.info("{}: no longer leading; the epoch built is not appended", cause);
      return Optional.empty();
    }
    if (f == null) {
      return Optional.of(store.append(sealer));
    }
    Optional<Snapshot> appended = store.append(sealer, f);
    if (appended.isEmpty()) {
      // Another replica leads now (or this one was paused past its lease): nothing was stored.
      storeUp();
      follow("the lease with term " + f.term() + " no longer holds");
      leaseLost.run();
    }
    return appended;
  }

  @Override
  public void storeDown(StoreUnavailableException e) {
    unavailable(e);
    // Retry from the latest inputs, not before the retry delay; whatever arrived meanwhile is included.
    writer.retry("store retry");
  }

  @Override
  public void storeUp() {
    writer.pending(false);
    if (!storeAvailable) {
      storeAvailable = true;
      log.warn("store available again; publishing resumes");
    }
  }

  /**
   * For the replication thread: the store could not be read. A replica that is not leading (a
   * follower, or a leader deposed because it could not renew its lease in the outage) has nothing
   * of its own to append, so without this its status, {@code /readyz} and
   * {@code signalbox_store_available} would say the store is fine through the whole outage
   * (StoreOutageDrillIT). The leader's writer reports it itself.
   */
  void storeUnreachable(StoreUnavailableException e) {
    if (!leading) {
      unavailable(e);
    }
  }

  /** For the replication thread: the store answered again. */
  void storeReachable() {
    if (!leading && !storeAvailable) {
      storeUp();
    }
  }

  private void unavailable(StoreUnavailableException e) {
    writer.pending(true);
    if (storeAvailable) {
      storeAvailable = false;
      log.warn("store unavailable, publishing nothing new and still serving epoch {}: {}", writer.epoch(),
          e.getMessage());
    }
  }
}
