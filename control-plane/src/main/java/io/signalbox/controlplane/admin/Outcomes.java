package io.signalbox.controlplane.admin;

import io.javalin.http.HttpStatus;
import io.signalbox.controlplane.reconcile.Outcome;
import java.util.Map;

/** The one place an intervention's {@link Outcome} becomes an HTTP answer. */
final class Outcomes {

  /** The status of each refusal code; a refusal not listed here is a conflict. */
  private static final Map<String, HttpStatus> REFUSALS = Map.of(
      "not_draining", HttpStatus.NOT_FOUND,
      "not_shedding", HttpStatus.NOT_FOUND,
      "nothing_held", HttpStatus.NOT_FOUND,
      "unknown_epoch", HttpStatus.NOT_FOUND,
      "ejection_cap", HttpStatus.CONFLICT,
      "no_safe_epoch", HttpStatus.CONFLICT);

  private Outcomes() {}

  /** What was done, or the refusal as a 4xx and the store's outage as a 503, nothing changed. */
  static <T> T value(Outcome<T> outcome) {
    if (outcome instanceof Outcome.Applied<T> applied) {
      return applied.value();
    }
    if (outcome instanceof Outcome.Refused<T> refused) {
      throw new ApiException(REFUSALS.getOrDefault(refused.code(), HttpStatus.CONFLICT), refused.code(),
          refused.message());
    }
    throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "store_unavailable",
        "nothing was changed: " + ((Outcome.Unavailable<T>) outcome).message());
  }
}
