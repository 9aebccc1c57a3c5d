package io.signalbox.store;

import java.util.List;

/**
 * Operator intent beyond the per-endpoint overrides: the freeze, quarantined resources,
 * confirmations of held updates, the operator's drops and the freeze of ejections. Like {@link OverrideStore}, it is the authority: a writer applies
 * what is stored, and every change is stored before it takes effect, so a restart, a crash or a
 * change of leader loses nothing an operator (or the rollout) decided.
 *
 * <p>Every write, here or in the {@link OverrideStore}, makes {@link #revision()} grow in the same
 * transaction: a process holding a copy of the intent reads it again when the revision moved.
 */
public interface IntentStore {

  /** Everything the writer must honour, read in one transaction. */
  StoredIntent read();

  /** Sets (or replaces) the freeze. */
  void freeze(StoredIntent.Freeze freeze);

  /** Lifts the freeze; false if there was none. */
  boolean unfreeze();

  /** Adds each entry, replacing a stored one of the same type and name, all in one transaction. */
  void quarantine(List<StoredIntent.Quarantined> entries);

  /**
   * Deletes the entry of {@code type} and {@code name} if it still holds back {@code rejectedVersion};
   * false otherwise (lifted already, or replaced by a newer rejection meanwhile).
   */
  boolean lift(String type, String name, String rejectedVersion);

  /** Records (or replaces) the confirmation of a cluster's held update. */
  void confirm(StoredIntent.Confirmation confirmation);

  /** Forgets the confirmation of {@code cluster}; false if there was none. */
  boolean clearConfirmation(String cluster);

  /** Sets (or replaces) the freeze of ejections. */
  void freezeEjections(StoredIntent.Freeze freeze);

  /** Lifts the freeze of ejections; false if there was none. */
  boolean unfreezeEjections();

  /**
   * Adds the drop, or replaces the one of the same cluster and category (keeping its place in the
   * order clients apply them).
   */
  void drop(StoredIntent.Drop drop);

  /**
   * Deletes the drops of {@code cluster}: only {@code category}'s, or all when it is null.
   *
   * @return how many there were
   */
  int undrop(String cluster, String category);

  /** Grows with every change to the intent or the overrides; 0 before the first. */
  long revision();
}
