package io.signalbox.store;

import java.time.Duration;

/**
 * {@code store.history}: the append-only record of every stream's sent, ACKed and NACKed responses
 * ({@link StreamHistory}), and how much of it is kept. Both bounds hold: an event goes when it is
 * older than {@code retain} or when {@code maxEvents} newer ones are kept.
 *
 * @param enabled false records nothing (the history reads come back empty)
 * @param retain how long an event is kept
 * @param maxEvents how many events are kept at most, over every replica
 */
public record HistorySettings(Boolean enabled, Duration retain, Long maxEvents) {

  public static final Duration DEFAULT_RETAIN = Duration.ofHours(24);
  public static final long DEFAULT_MAX_EVENTS = 1_000_000;

  public HistorySettings {
    enabled = enabled == null || enabled;
    retain = retain == null ? DEFAULT_RETAIN : retain;
    maxEvents = maxEvents == null ? DEFAULT_MAX_EVENTS : maxEvents;
  }

  public static HistorySettings defaults() {
    return new HistorySettings(null, null, null);
  }
}
