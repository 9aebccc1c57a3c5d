package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.store.EpochSealer;
import io.signalbox.store.StoreUnavailableException;
import java.util.Map;
import java.util.Optional;

/**
 * The writer's place among replicas, which {@code replica/} decides (DESIGN "Replicas"): whether
 * this process builds now, how an epoch is appended, and whether the store answers. The writer
 * only builds and publishes; role changes (lead, follow, take over, fenced out) and the store going
 * down or up are the role's. Everything but {@link #leading} and {@link #storeAvailable} is called
 * on the writer thread, so one thread publishes to the xDS server.
 */
public interface WriterRole {

  /**
   * What the leader has committed, for a follower to serve.
   *
   * @param newest the newest committed epoch
   * @param waves wave -> the snapshot released to it (canary waves only; empty otherwise)
   */
  record Committed(Snapshot newest, Map<Integer, Snapshot> waves) {}

  /** What a role may ask of the writer it belongs to. */
  interface Writer {

    /** Reads the stored operator intent; false while it cannot be read. */
    boolean loadIntent();

    /** Taking the lead: serves {@code latest} (the newest committed epoch) and its bookkeeping. */
    void tookOver(Snapshot latest);

    /** Following: serves what the leader committed, never moving back. */
    void served(Committed committed);

    /** The epoch served now (0 before the first). */
    long epoch();

    /** Runs the writer thread now: it acts on the role's news before it builds. */
    void signalNow(String cause);

    /** Runs the writer thread again after the store retry delay, from the latest inputs. */
    void retry(String cause);

    /** Whether inputs wait unpublished (shown in the status). */
    void pending(boolean pending);
  }

  /** Once, when the role is given to its writer. */
  void bind(Writer writer);

  /** Whether this process builds and appends epochs (always, standalone). */
  boolean leading();

  /** Whether the store answered last time it was asked. */
  boolean storeAvailable();

  /** On the writer thread, before each build: acts on the role's news; whether to build. */
  boolean settle();

  /**
   * Appends a built epoch, fenced by the lease among replicas.
   *
   * @return the epoch appended, or empty when this process no longer leads (nothing was stored)
   */
  Optional<Snapshot> append(String cause, EpochSealer<Snapshot> sealer) throws StoreUnavailableException;

  /** The writer could not reach the store: publish nothing new and retry later. */
  void storeDown(StoreUnavailableException e);

  /** The writer's store call succeeded. */
  void storeUp();
}
