package io.signalbox.store;

import java.util.List;
import java.util.Set;

/**
 * What every replica records about its own xDS clients and reads about everyone's: one row per
 * client stream and resource type, and the NACKs they sent. The fleet view (SAFE, rollback, drain
 * gating across replicas) and restarts read it.
 */
public interface ClientStatusStore {

  /**
   * Inserts or replaces each row by its {@link ClientRecord.Key}, all in one transaction. When the
   * list names a key twice, the later row wins.
   */
  void save(List<ClientRecord> records);

  /** Every client row, connected or not, most recently seen first. */
  List<ClientRecord> all();

  /**
   * Marks every row still connected as disconnected, keeping its {@code lastSeenAt}, except the
   * rows of the replicas in {@code alive}. Called when a replica starts (the streams its rows
   * describe died with its previous process, and so did those of replicas that no longer send a
   * heartbeat): standalone, with nobody alive; among replicas, with the others that are.
   *
   * @return how many rows were changed
   */
  int disconnectAllBut(Set<String> alive);

  void recordNack(NackEvent event);

  /** The newest {@code limit} NACK events, newest first. */
  List<NackEvent> recentNacks(int limit);

  /** The NACK events of responses built from {@code snapshotEpoch}, newest first. */
  List<NackEvent> nacksOf(long snapshotEpoch);
}
