package io.signalbox.store;

import java.util.List;

/**
 * Operator overrides (drain, eject, weight), kept so they survive restarts and beat source state
 * until undone. Inactive ones stay for history (and to count repeat ejections).
 */
public interface OverrideStore {

  /** Every active override, oldest first. */
  List<StoredOverride> active();

  /** Adds {@code override}, replacing an active one of the same endpoint and kind. */
  void put(StoredOverride override);

  /** Deactivates the active override of that endpoint and kind; false if there was none. */
  boolean remove(String cluster, String address, int port, String kind);

  /** How many overrides of that endpoint and kind were ever made, active or not. */
  int count(String cluster, String address, int port, String kind);
}
