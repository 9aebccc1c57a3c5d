package io.signalbox.store.postgres;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Instants as the PostgreSQL stores write them ({@code timestamptz} at UTC) and back. */
final class UtcTimestamps {

  private UtcTimestamps() {}

  static OffsetDateTime utc(Instant at) {
    return at.atOffset(ZoneOffset.UTC);
  }

  static OffsetDateTime utcOrNull(Instant at) {
    return at == null ? null : utc(at);
  }

  static Instant instantOrNull(OffsetDateTime at) {
    return at == null ? null : at.toInstant();
  }

  /** Microseconds since the epoch, PostgreSQL's own precision: how times travel in arrays of {@code int8}. */
  static Long micros(Instant at) {
    return at == null ? null : Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1000);
  }
}
