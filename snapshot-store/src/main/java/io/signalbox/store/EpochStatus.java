package io.signalbox.store;

/** Lifecycle of a published epoch. */
public enum EpochStatus {
  /** The newest published epoch, being rolled out or held by clients. */
  ACTIVE,
  /** Acknowledged by the fleet with no NACK: a rollback target. */
  SAFE,
  /** Clients NACKed it; never re-sent. */
  REJECTED,
  /** Replaced by a newer epoch before it became SAFE. */
  SUPERSEDED
}
