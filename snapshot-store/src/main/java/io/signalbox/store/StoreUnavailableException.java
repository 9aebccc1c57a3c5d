package io.signalbox.store;

/** The backing database could not be reached or refused the operation; nothing was changed. */
public final class StoreUnavailableException extends RuntimeException {
  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
