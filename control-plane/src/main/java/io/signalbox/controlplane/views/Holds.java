package io.signalbox.controlplane.views;

import io.signalbox.controlplane.reconcile.HeldUpdates;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.store.StoredIntent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything that keeps something an operator or a source asked for out of the served epoch, each
 * with what releases it: {@code status.holds}, which {@code signalbox status} prints as it is, so
 * the API and the table use the same words. A drain held by a guard looked fine in the table while
 * only the JSON's {@code held} said its cluster was held (issue 42).
 */
public final class Holds {

  private Holds() {}

  /** What a hold is about; {@code subject} names it in the kind's own terms. */
  enum Kind { freeze, update, config, drain, ejection }

  /**
   * One hold.
   *
   * @param subject the cluster ({@code update}), the config file ({@code config}),
   *     {@code cluster/address:port} ({@code drain}, {@code ejection}) or {@code publishing}
   * @param rule the guard's rule ({@code guard.min-eligible}, ...), or {@code freeze}
   * @param since when the hold began, where known
   * @param release what lets it through or withdraws it, as commands to run
   */
  record Hold(Kind kind, String subject, String rule, String message, Instant since, String release) {}

  public static List<Hold> of(PublishedView view) {
    List<Hold> holds = new ArrayList<>();
    StoredIntent.Freeze freeze = view.status().freeze();
    if (view.status().frozen()) {
      holds.add(new Hold(Kind.freeze, "publishing", "freeze",
          "no epoch is published" + (freeze == null ? "" : "; frozen by " + freeze.actor() + reason(freeze.reason())),
          freeze == null ? null : freeze.at(), "'signalbox unfreeze' publishes what the inputs say now"));
    }
    for (HeldUpdates.Held held : view.held()) {
      if (held.cluster() == null) {
        holds.add(new Hold(Kind.config, held.config(), held.rule(), held.message(), held.since(), held.release()));
      } else {
        holds.add(new Hold(Kind.update, held.cluster(), held.rule(), held.message(), held.since(), held.release()));
      }
    }
    for (OperatorOverride o : view.intent().overrides()) {
      if (o instanceof OperatorOverride.Drain d && !view.drainingSince().containsKey(d.endpoint())) {
        drain(view, d).ifPresent(holds::add);
      }
    }
    var ejectionFreeze = view.status().ejectionFreeze();
    view.status().heldEjections().forEach((endpoint, why) -> holds.add(new Hold(Kind.ejection, endpoint, "freeze",
        why, ejectionFreeze == null ? null : ejectionFreeze.at(), "'signalbox unfreeze-ejections' publishes it")));
    return holds;
  }

  /** A stored drain no epoch carries yet, held by its cluster's guard or by the freeze. */
  private static Optional<Hold> drain(PublishedView view, OperatorOverride.Drain d) {
    EndpointRef ref = d.endpoint();
    String subject = ref.cluster() + "/" + ref.key();
    String undrain = "'signalbox undrain " + ref.cluster() + " " + ref.key() + "' withdraws it";
    String drained = "drained by " + d.actor() + reason(d.reason()) + ", in no epoch yet: ";
    for (HeldUpdates.Held held : view.held()) {
      if (ref.cluster().equals(held.cluster())) {
        return Optional.of(new Hold(Kind.drain, subject, held.rule(), drained + held.message(), d.createdAt(),
            "'signalbox confirm " + ref.cluster() + "' lets the held update through" + held.byItself() + "; " + undrain));
      }
    }
    if (view.status().frozen()) {
      return Optional.of(new Hold(Kind.drain, subject, "freeze", drained + "publishing is frozen",
          d.createdAt(), "'signalbox unfreeze' publishes it; " + undrain));
    }
    // Accepted, and the writer has not built its epoch yet: not held, only new.
    return Optional.empty();
  }

  private static String reason(String reason) {
    return reason == null || reason.isEmpty() ? "" : ": " + reason;
  }
}
