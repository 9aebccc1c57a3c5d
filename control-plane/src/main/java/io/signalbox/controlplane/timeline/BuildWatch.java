package io.signalbox.controlplane.timeline;

import io.signalbox.controlplane.reconcile.PublishedView;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Told of the view the writer leaves after each build, on the writer's thread: finds what changed
 * ({@link StateChanges}) and hands it to {@link SystemAudit}, which writes it on a thread of its
 * own. Only the leader records: every replica reads the same sources and would record each change
 * once per replica; the state is followed on every replica all the same, so a new leader records
 * only what changes after it leads.
 */
public final class BuildWatch implements Consumer<PublishedView> {

  private final StateChanges changes = new StateChanges();
  private final SystemAudit audit;
  private final BooleanSupplier leading;

  public BuildWatch(SystemAudit audit, BooleanSupplier leading) {
    this.audit = audit;
    this.leading = leading;
  }

  @Override
  public void accept(PublishedView view) {
    List<StateChanges.Change> found = changes.next(view.held(), view.intent().confirmations().keySet(),
        view.status().sources(), view.status().sourceProblems());
    if (!found.isEmpty() && leading.getAsBoolean()) {
      audit.record(found);
    }
  }
}
