package io.signalbox.store;

import java.util.List;

/**
 * What happened besides epochs: operator actions and lifecycle transitions ({@link #audit}), and
 * the input the validator refused ({@link #recordRejection}), which creates no epoch.
 *
 * <p>Every method may throw {@link StoreUnavailableException} when the backing database cannot be
 * reached.
 */
public interface AuditTrail {

  /** Records input the validator rejected; it creates no epoch. */
  void recordRejection(RejectedCandidate candidate);

  /** Rejected candidates, newest first. */
  List<RejectedCandidate> rejections(int limit);

  void audit(AuditEntry entry);

  /** Audit entries, newest first: by time, then by the order they were written. */
  List<AuditEntry> auditLog(int limit);
}
