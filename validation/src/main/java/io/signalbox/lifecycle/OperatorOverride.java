package io.signalbox.lifecycle;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An operator's decision about one endpoint. It beats what sources report until it is undone
 * (undrain), or until it expires (an ejection).
 */
public sealed interface OperatorOverride {

  EndpointRef endpoint();

  String actor();

  String reason();

  Instant createdAt();

  /** No new work; existing work finishes. Held until undrained. */
  record Drain(EndpointRef endpoint, String actor, String reason, Instant createdAt, Duration deadline)
      implements OperatorOverride {
    public Drain {
      Objects.requireNonNull(endpoint, "endpoint");
      Objects.requireNonNull(deadline, "deadline");
    }

    /** When the drain deadline passes: from then on the endpoint is idle by policy. */
    public Instant deadlineAt() {
      return createdAt.plus(deadline);
    }
  }

  /** Out until {@code until}, then back through WARMING for {@code warmup}. */
  record Eject(EndpointRef endpoint, String actor, String reason, Instant createdAt, Instant until, Duration warmup)
      implements OperatorOverride {
    public Eject {
      Objects.requireNonNull(endpoint, "endpoint");
      Objects.requireNonNull(until, "until");
      Objects.requireNonNull(warmup, "warmup");
    }
  }

  /** Another weight than the source's. */
  record Weight(EndpointRef endpoint, String actor, String reason, Instant createdAt, int weight)
      implements OperatorOverride {
    public Weight {
      Objects.requireNonNull(endpoint, "endpoint");
    }
  }
}
