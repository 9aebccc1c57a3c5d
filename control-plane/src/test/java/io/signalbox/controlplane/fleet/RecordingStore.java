package io.signalbox.controlplane.fleet;

import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.ClientRecord;
import io.signalbox.store.ClientStatusStore;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.EpochSealer;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.NackEvent;
import io.signalbox.store.RejectedCandidate;
import io.signalbox.store.SnapshotStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A real store, with every client status write it was asked for recorded (including failed ones). */
final class RecordingStore implements SnapshotStore {

  private final SnapshotStore delegate;
  /** The batches that were saved, in order. */
  final List<List<ClientRecord>> batches = new CopyOnWriteArrayList<>();
  /** Client status and NACK writes attempted, saved or not. */
  final AtomicInteger attempts = new AtomicInteger();

  /** The stream history batches that were appended, in order. */
  final List<List<io.signalbox.store.StreamEvent>> historyBatches = new CopyOnWriteArrayList<>();
  /** The threads that appended them: never a stream's. */
  final java.util.Set<String> historyThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();

  RecordingStore(SnapshotStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public io.signalbox.store.StreamHistory history() {
    io.signalbox.store.StreamHistory history = delegate.history();
    return new io.signalbox.store.StreamHistory() {
      @Override
      public void append(List<io.signalbox.store.StreamEvent> events) {
        history.append(events);
        historyBatches.add(List.copyOf(events));
        historyThreads.add(Thread.currentThread().getName());
      }

      @Override
      public List<io.signalbox.store.StreamEvent> ofNode(String nodeId, java.time.Instant since, String type,
          int limit) {
        return history.ofNode(nodeId, since, type, limit);
      }

      @Override
      public List<io.signalbox.store.StreamEvent> latestAt(java.time.Instant at) {
        return history.latestAt(at);
      }

      @Override
      public long prune(java.time.Instant before, long keep) {
        return history.prune(before, keep);
      }

      @Override
      public long count() {
        return history.count();
      }
    };
  }

  @Override
  public ClientStatusStore clients() {
    ClientStatusStore clients = delegate.clients();
    return new ClientStatusStore() {
      @Override
      public void save(List<ClientRecord> records) {
        attempts.incrementAndGet();
        clients.save(records);
        batches.add(List.copyOf(records));
      }

      @Override
      public void recordNack(NackEvent event) {
        attempts.incrementAndGet();
        clients.recordNack(event);
      }

      @Override
      public int disconnectAllBut(java.util.Set<String> alive) {
        attempts.incrementAndGet();
        return clients.disconnectAllBut(alive);
      }

      @Override
      public List<ClientRecord> all() {
        return clients.all();
      }

      @Override
      public List<NackEvent> recentNacks(int limit) {
        return clients.recentNacks(limit);
      }

      @Override
      public List<NackEvent> nacksOf(long snapshotEpoch) {
        return clients.nacksOf(snapshotEpoch);
      }
    };
  }

  @Override
  public <S> S append(EpochSealer<S> sealer) {
    return delegate.append(sealer);
  }

  @Override
  public Optional<SnapshotEnvelope> latest() {
    return delegate.latest();
  }

  @Override
  public Optional<SnapshotEnvelope> load(long epoch) {
    return delegate.load(epoch);
  }

  @Override
  public List<SnapshotEnvelope> storedAfter(long epoch, int limit) {
    return delegate.storedAfter(epoch, limit);
  }

  @Override
  public List<EpochRecord> epochs(int limit, long beforeEpoch) {
    return delegate.epochs(limit, beforeEpoch);
  }

  @Override
  public Optional<EpochRecord> epoch(long epoch) {
    return delegate.epoch(epoch);
  }

  @Override
  public void setStatus(long epoch, EpochStatus status, String reason) {
    delegate.setStatus(epoch, status, reason);
  }

  @Override
  public boolean replaceStatus(long epoch, EpochStatus expected, EpochStatus status, String reason) {
    return delegate.replaceStatus(epoch, expected, status, reason);
  }

  @Override
  public void recordRejection(RejectedCandidate candidate) {
    delegate.recordRejection(candidate);
  }

  @Override
  public List<RejectedCandidate> rejections(int limit) {
    return delegate.rejections(limit);
  }

  @Override
  public void audit(AuditEntry entry) {
    delegate.audit(entry);
  }

  @Override
  public List<AuditEntry> auditLog(int limit) {
    return delegate.auditLog(limit);
  }

  @Override
  public io.signalbox.store.OverrideStore overrides() {
    return delegate.overrides();
  }

  @Override
  public io.signalbox.store.IntentStore intent() {
    return delegate.intent();
  }

  @Override
  public java.util.Optional<io.signalbox.store.EpochRecord> newestWithStatus(io.signalbox.store.EpochStatus status) {
    return delegate.newestWithStatus(status);
  }

  @Override
  public <S> java.util.Optional<S> append(io.signalbox.store.EpochSealer<S> sealer, io.signalbox.store.Fence fence) {
    return delegate.append(sealer, fence);
  }

  @Override
  public long lastEpoch() {
    return delegate.lastEpoch();
  }

  @Override
  public void release(int wave, long epoch) {
    delegate.release(wave, epoch);
  }

  @Override
  public java.util.Map<Integer, Long> releases() {
    return delegate.releases();
  }

  @Override
  public io.signalbox.store.Leadership leadership() {
    return delegate.leadership();
  }

  @Override
  public io.signalbox.store.LeaseStore leases() {
    return delegate.leases();
  }

  @Override
  public io.signalbox.store.LoadReportStore loadReports() {
    return delegate.loadReports();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
