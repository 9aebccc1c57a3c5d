package io.signalbox.controlplane.timeline;

import java.time.Instant;
import java.util.Objects;

/**
 * One line of the timeline.
 *
 * @param actor who caused it: an operator's token name, {@code signalbox} for the control plane's
 *     own decisions, the node id(s) of the clients for a NACK
 * @param action what happened, as the audit trail names it ({@code drain}, {@code hold}, ...), or
 *     {@code publish}, {@code reject} and {@code nack} for the records that are not audit entries
 * @param target what it happened to: {@code epoch 7}, {@code greeter/127.0.0.1:50051}, a source id
 * @param reason why, in the words of the record it was read from
 */
public record TimelineEvent(Instant at, TimelineKind kind, String actor, String action, String target, String reason) {

  public TimelineEvent {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(kind, "kind");
    actor = actor == null ? "" : actor;
    action = action == null ? "" : action;
    target = target == null ? "" : target;
    reason = reason == null ? "" : reason;
  }
}
