package io.signalbox.controlplane.replica;

import io.signalbox.controlplane.reconcile.WriterRole;
import io.signalbox.controlplane.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * The writer a {@link Role} belongs to, reduced to what the role asks of it: every call recorded
 * in order, the served epoch kept as the real writer keeps it, and whether the operator intent can
 * be read set by the test.
 */
final class RecordingWriter implements WriterRole.Writer {

  final List<String> calls = new ArrayList<>();
  boolean intentReadable = true;
  Boolean pending;
  private long epoch;

  @Override
  public boolean loadIntent() {
    calls.add("loadIntent " + intentReadable);
    return intentReadable;
  }

  @Override
  public void tookOver(Snapshot latest) {
    calls.add("tookOver " + latest.epoch());
    epoch = Math.max(epoch, latest.epoch());
  }

  @Override
  public void served(WriterRole.Committed committed) {
    calls.add("served " + committed.newest().epoch());
    epoch = Math.max(epoch, committed.newest().epoch());
  }

  @Override
  public long epoch() {
    return epoch;
  }

  /** A build of this process was appended: it serves it. */
  void published(Snapshot s) {
    epoch = s.epoch();
  }

  @Override
  public void signalNow(String cause) {
    calls.add("signalNow " + cause);
  }

  @Override
  public void retry(String cause) {
    calls.add("retry " + cause);
  }

  @Override
  public void pending(boolean p) {
    pending = p;
  }

  /** The calls since the last time this was asked. */
  List<String> drain() {
    List<String> out = List.copyOf(calls);
    calls.clear();
    return out;
  }
}
