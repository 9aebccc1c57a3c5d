package io.signalbox.store;

import java.time.Instant;
import java.util.List;

/** Input the validator refused: why it was built, and every violation, each rendered on one line. */
public record RejectedCandidate(Instant at, String cause, List<String> violations) {
  public RejectedCandidate {
    violations = List.copyOf(violations);
  }
}
