package io.signalbox.store;

/**
 * Every role of the store, opened together by {@link Stores#open} over one connection pool (or one
 * heap), and closed together. Callers take the role they use: {@link EpochLog}, {@link AuditTrail},
 * or one of the accessors below; only the composition root holds the whole store.
 *
 * <p>Every method may throw {@link StoreUnavailableException} when the backing database cannot be
 * reached; callers keep serving what they have.
 */
public interface SnapshotStore extends EpochLog, AuditTrail, AutoCloseable {

  /** The leader lease and the replicas' heartbeats. */
  Leadership leadership();

  /** Every replica's xDS clients and their NACKs. */
  ClientStatusStore clients();

  /** Operator overrides, kept with the epoch log. */
  OverrideStore overrides();

  /** The rest of the operator intent (freeze, quarantine, confirmations), kept with the epoch log. */
  IntentStore intent();

  /** REST registry leases, kept with the epoch log. */
  LeaseStore leases();

  /** Every replica's aggregated load reports (LRS). */
  LoadReportStore loadReports();

  /** Every stream's sent, ACKed and NACKed responses, append-only, bounded by retention. */
  StreamHistory history();

  @Override
  void close();
}
