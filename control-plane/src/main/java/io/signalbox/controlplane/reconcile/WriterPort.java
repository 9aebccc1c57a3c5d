package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import java.time.Duration;
import java.util.function.Consumer;

/** What the writer's role ({@link WriterRole}) may ask of the writer: each a call to its parts. */
final class WriterPort implements WriterRole.Writer {

  private final Interventions interventions;
  private final Publication publication;
  private final BuildTrigger trigger;
  private final Duration storeRetry;
  private final Consumer<Boolean> pending;

  WriterPort(Interventions interventions, Publication publication, BuildTrigger trigger, Duration storeRetry,
      Consumer<Boolean> pending) {
    this.interventions = interventions;
    this.publication = publication;
    this.trigger = trigger;
    this.storeRetry = storeRetry;
    this.pending = pending;
  }

  @Override
  public boolean loadIntent() {
    return interventions.load();
  }

  @Override
  public void tookOver(Snapshot latest) {
    publication.tookOver(latest);
  }

  @Override
  public void served(WriterRole.Committed c) {
    publication.served(c);
  }

  @Override
  public long epoch() {
    return publication.epoch();
  }

  @Override
  public void signalNow(String cause) {
    trigger.signalNow(cause);
  }

  @Override
  public void retry(String cause) {
    trigger.retryAfter(storeRetry, cause);
  }

  @Override
  public void pending(boolean p) {
    pending.accept(p);
  }
}
