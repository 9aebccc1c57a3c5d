package io.signalbox.store;

import java.time.Instant;
import java.util.List;

/**
 * The append-only record of every client stream's sent, ACKed and NACKed responses, on every
 * replica, bounded by retention: who held what, when. Rows are never updated; {@link #prune} deletes
 * the oldest.
 */
public interface StreamHistory {

  /** Appends {@code events}, all in one statement. */
  void append(List<StreamEvent> events);

  /**
   * The events of node {@code nodeId} at or after {@code since}, of {@code type} (and its streams'
   * closings) or of every type when {@code type} is null, oldest first, at most {@code limit} (the
   * newest of them when there are more).
   */
  List<StreamEvent> ofNode(String nodeId, Instant since, String type, int limit);

  /**
   * As of {@code at}: the newest event at or before it of each stream, type and kind, in no
   * particular order. What each client held at that time is read from these (the newest ACK, and
   * whether a SENT, a NACK or the closing came after it).
   */
  List<StreamEvent> latestAt(Instant at);

  /**
   * Deletes the events older than {@code before}, and then all but the newest {@code keep}.
   *
   * @return how many were deleted
   */
  long prune(Instant before, long keep);

  /** How many events are kept. */
  long count();
}
