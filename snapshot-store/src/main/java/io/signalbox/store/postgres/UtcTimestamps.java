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
}
