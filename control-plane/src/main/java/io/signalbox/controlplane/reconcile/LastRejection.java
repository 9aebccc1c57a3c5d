package io.signalbox.controlplane.reconcile;

import io.signalbox.store.RejectedCandidate;
import java.time.Instant;
import java.util.List;

/**
 * The most recent refused input as the status API shows it: what was refused, which inputs the
 * violations are about, and whether it still holds. A rejection that kept showing after its input
 * was fixed sent operators hunting for a problem that was gone (issue 29).
 *
 * @param at when it was refused (the first time, while the same violations repeat)
 * @param cause what made the writer build, or the config file's reload
 * @param violations every violation, one line each
 * @param inputs what the violations are about, each once in order: an endpoint file's source id
 *     ({@code file:/etc/endpoints.yaml}), the config file's path, a source id
 * @param supersededAt when a later input was accepted, so this one no longer holds; null while it does
 */
public record LastRejection(Instant at, String cause, List<String> violations, List<String> inputs,
    Instant supersededAt) {

  public LastRejection {
    violations = List.copyOf(violations);
    inputs = List.copyOf(inputs);
  }

  static LastRejection of(RejectedCandidate candidate, List<String> inputs) {
    return new LastRejection(candidate.at(), candidate.cause(), candidate.violations(), inputs, null);
  }

  /** True once an input accepted after it has replaced what was refused. */
  public boolean superseded() {
    return supersededAt != null;
  }

  LastRejection supersededAt(Instant when) {
    return new LastRejection(at, cause, violations, inputs, when);
  }
}
