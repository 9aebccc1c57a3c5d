package io.signalbox.controlplane.views;

import io.signalbox.controlplane.reconcile.HeldUpdates;
import io.signalbox.controlplane.reconcile.Intent;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.store.StoredIntent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why the served configuration is not what the inputs say, since when, and how to go forward:
 * {@code status.servedDiffers}, printed by {@code signalbox status} and {@code signalbox epochs}.
 * A rollback right after a fix undid the fix and nothing anywhere said that the files and what
 * clients hold now differ (issue 42).
 */
public final class InputDifferences {

  private InputDifferences() {}

  /**
   * One way the served configuration differs from the inputs.
   *
   * @param kind {@code rollback} (resources served from an older epoch), {@code freeze}, {@code config}
   *     (a config reload held by its guard)
   * @param since when it began
   * @param says what differs, in a sentence
   * @param forward the commands or edits that serve the inputs again
   */
  record Difference(String kind, Instant since, String says, String forward) {}

  public static List<Difference> of(PublishedView view) {
    List<Difference> out = new ArrayList<>();
    StoredIntent.Freeze freeze = view.status().freeze();
    if (view.status().frozen()) {
      out.add(new Difference("freeze", freeze == null ? null : freeze.at(),
          "publishing is frozen" + (freeze == null ? "" : " by " + freeze.actor()
              + (freeze.reason().isEmpty() ? "" : " (" + freeze.reason() + ")"))
              + ": epoch " + view.status().epoch() + " is served"
              + (view.status().pendingPublish() ? " and newer inputs wait" : "; inputs that change wait"),
          "'signalbox unfreeze' publishes what the inputs say"));
    }
    // One line per rollback (or rejection), not per resource: they share an epoch and a reason.
    Map<String, List<Intent.Restored>> byCause = new LinkedHashMap<>();
    for (Intent.Restored r : view.intent().restored()) {
      byCause.computeIfAbsent(r.epoch() + "\n" + r.reason(), k -> new ArrayList<>()).add(r);
    }
    byCause.values().forEach(restored -> {
      Intent.Restored first = restored.get(0);
      List<String> names = restored.stream().map(r -> r.type() + "/" + r.name()).toList();
      out.add(new Difference("rollback", first.at(),
          String.join(", ", names) + " served as in epoch " + first.epoch() + ", not as the inputs say ("
              + first.reason() + ")",
          "an edit of the config that changes " + (restored.size() == 1 ? "it" : "one of them")
              + " serves the inputs again for it; 'signalbox rollback --to N' serves epoch N's instead"));
    });
    for (HeldUpdates.Held held : view.held()) {
      if (held.cluster() == null) {
        out.add(new Difference("config", held.since(),
            "the config in force is served, not " + held.config() + ": " + held.message() + " [" + held.rule() + "]",
            "'signalbox confirm --config' applies the file as written; or restore the file"));
      }
    }
    return out;
  }
}
