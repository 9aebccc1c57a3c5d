package io.signalbox.controlplane.replica;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.signalbox.controlplane.config.HaSettings;
import io.signalbox.store.Fence;
import io.signalbox.store.Leadership;
import io.signalbox.store.StoreUnavailableException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on the store's lease row: every {@code renewInterval} the leader renews, and every
 * other replica tries to take the lease (it succeeds only once the lease has expired, with a new
 * term). A leader whose renewal fails — refused, or the database unreachable — stops leading at
 * once, before the lease can have passed to anyone: it cannot know it still holds it. The term is
 * also checked by every append ({@link Fence}), so even a leader paused past its lease, which has
 * not yet noticed, stores nothing.
 */
public final class Election implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Election.class);

  /** Told of every change of this replica's role; called on the election's thread. */
  public interface Listener {
    void elected(Fence lease);

    void deposed(String why);
  }

  private final Leadership leadership;
  private final HaSettings ha;
  private final Listener listener;
  private final ScheduledExecutorService thread;
  // Written on the election thread; read by status and the API.
  private volatile long term;
  private volatile Leadership.Lease seen;

  public Election(Leadership leadership, HaSettings ha, Listener listener) {
    this.leadership = leadership;
    this.ha = ha;
    this.listener = listener;
    this.thread = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setNameFormat("election").setDaemon(true).build());
  }

  public Election start() {
    thread.scheduleWithFixedDelay(this::tick, 0, ha.renewInterval().toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** The lease term this replica leads with, or 0 when it follows. */
  public long term() {
    return term;
  }

  /** The lease as last seen (whoever holds it), or null before the first look. */
  public Leadership.Lease lease() {
    return seen;
  }

  /** An append found the lease gone before a renewal did: follow from now on. */
  public void fencedOut() {
    thread.execute(() -> {
      if (term != 0) {
        depose("an append found the lease with term " + term + " gone");
      }
    });
  }

  /** One round on the election thread; called directly by tests, which drive the rounds themselves. */
  void tick() {
    try {
      if (term != 0) {
        boolean renewed;
        try {
          renewed = leadership.renew(ha.replicaId(), term, ha.leaseDuration());
        } catch (StoreUnavailableException e) {
          renewed = false;
          log.warn("could not renew the leader lease: {}", e.getMessage());
        }
        if (renewed) {
          return;
        }
        depose("the lease with term " + term + " was not renewed");
      }
      Leadership.Lease lease = leadership.acquire(ha.replicaId(), ha.leaseDuration());
      Leadership.Lease before = seen;
      seen = lease;
      if (lease.leaderId().equals(ha.replicaId())) {
        term = lease.term();
        log.info("replica {} leads with term {}", ha.replicaId(), term);
        listener.elected(new Fence(ha.replicaId(), term));
      } else if (before == null || before.term() != lease.term()) {
        log.info("replica {} follows {} (term {})", ha.replicaId(), lease.leaderId(), lease.term());
      }
    } catch (StoreUnavailableException e) {
      log.debug("leader election: store unavailable: {}", e.getMessage());
    } catch (RuntimeException e) {
      log.error("leader election failed; will retry", e);
    }
  }

  private void depose(String why) {
    term = 0;
    listener.deposed(why);
  }

  /** Gives the lease up, so another replica leads without waiting for it to expire. */
  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    long t = term;
    if (t != 0) {
      term = 0;
      listener.deposed("shutting down");
      try {
        leadership.release(ha.replicaId(), t);
      } catch (StoreUnavailableException e) {
        log.warn("could not release the leader lease; it expires in {}", ha.leaseDuration());
      }
    }
  }
}
