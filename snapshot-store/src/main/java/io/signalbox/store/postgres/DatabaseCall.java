package io.signalbox.store.postgres;

import io.signalbox.store.StoreUnavailableException;
import java.util.function.Supplier;
import org.jooq.exception.DataAccessException;

/**
 * The one place the PostgreSQL stores turn a database failure into {@link StoreUnavailableException},
 * so every operation reports an outage the same way: wrapped once, naming what was being done.
 */
final class DatabaseCall {

  private DatabaseCall() {}

  /** Runs {@code work}; a database failure becomes StoreUnavailableException, other exceptions pass through. */
  static <T> T call(String operation, Supplier<T> work) {
    try {
      return work.get();
    } catch (DataAccessException e) {
      throw new StoreUnavailableException(
          "snapshot store unavailable (" + operation + "): " + e.getMessage(), e);
    }
  }
}
