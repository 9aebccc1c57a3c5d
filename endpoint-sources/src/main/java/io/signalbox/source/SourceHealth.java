package io.signalbox.source;

/** How much a source's last published state can be trusted. */
public enum SourceHealth {
  /** Synced and current. */
  FRESH,
  /** Last known state kept because the source cannot be read right now (fail static). */
  STALE,
  /** Never synced, or its input is invalid; its last good state (if any) is kept. */
  FAILED
}
