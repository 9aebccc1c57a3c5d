package io.signalbox.controlplane.admin;

import io.javalin.http.HttpStatus;

/**
 * An error answer: thrown from a handler, rendered as {@code {"code", "message"}} with this status.
 * Codes are stable; tooling switches on them.
 */
public final class ApiException extends RuntimeException {

  private final HttpStatus status;
  private final String code;

  public ApiException(HttpStatus status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  public HttpStatus status() {
    return status;
  }

  public String code() {
    return code;
  }

  public ApiError body() {
    return new ApiError(code, getMessage());
  }
}
