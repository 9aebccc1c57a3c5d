package io.signalbox.store.memory;

import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.ClientStatusStore;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.EpochSealer;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.Fence;
import io.signalbox.store.IntentStore;
import io.signalbox.store.Leadership;
import io.signalbox.store.LeaseStore;
import io.signalbox.store.LoadReportStore;
import io.signalbox.store.OverrideStore;
import io.signalbox.store.RejectedCandidate;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.chain.ChainTip;
import io.signalbox.store.chain.EpochChain;
import io.signalbox.store.chain.FullEnvelopes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A store that keeps everything in the heap: {@code store.url: memory}. Nothing survives a restart,
 * so it is meant for trying Signalbox out and for tests that are not about durability.
 */
public final class InMemorySnapshotStore implements SnapshotStore {

  private final Clock clock;
  // Guards every field below; no foreign code runs while it is held except the sealer, which the
  // EpochSealer contract keeps pure.
  private final Object lock = new Object();
  // Stored forms (full rows, deltas and the full copies checkpoints add to them) as
  // PostgresSnapshotStore keeps them, so both stores rebuild, retain and order envelopes alike.
  private final TreeMap<Long, SnapshotEnvelope> envelopes = new TreeMap<>();
  private final TreeMap<Long, SnapshotEnvelope> fullCopies = new TreeMap<>();
  private final TreeMap<Long, EpochChain.Row> rows = new TreeMap<>();
  private final FullEnvelopes fullEnvelopes = new FullEnvelopes();
  private final ChainTip chain = new ChainTip();
  private final TreeMap<Long, EpochRecord> records = new TreeMap<>();
  private final List<RejectedCandidate> rejections = new ArrayList<>();
  private final List<AuditEntry> audit = new ArrayList<>();
  private final InMemoryClientStatuses clients = new InMemoryClientStatuses();
  private final InMemoryStreamHistory history = new InMemoryStreamHistory();
  private long lastEpoch;

  private final InMemoryLeadership leadership;
  // Guarded by lock.
  private final Map<Integer, Long> releases = new TreeMap<>();

  public InMemorySnapshotStore(Clock clock) {
    this.clock = clock;
    this.leadership = new InMemoryLeadership(clock);
  }

  @Override
  public <S> Optional<S> append(EpochSealer<S> sealer, Fence fence) {
    synchronized (lock) {
      if (!leadership.holds(fence)) {
        return Optional.empty();
      }
      S sealed = append(sealer);
      records.put(lastEpoch, records.get(lastEpoch).withTerm(fence.term()));
      return Optional.of(sealed);
    }
  }

  @Override
  public long lastEpoch() {
    synchronized (lock) {
      return lastEpoch;
    }
  }

  @Override
  public void release(int wave, long epoch) {
    synchronized (lock) {
      releases.merge(wave, epoch, Math::max);
    }
  }

  @Override
  public Map<Integer, Long> releases() {
    synchronized (lock) {
      return Map.copyOf(releases);
    }
  }

  @Override
  public Leadership leadership() {
    return leadership;
  }

  @Override
  public <S> S append(EpochSealer<S> sealer) {
    synchronized (lock) {
      long epoch = lastEpoch + 1;
      S sealed = sealer.seal(epoch);
      EpochChain.Link tip = chain.extensible();
      EpochChain.Stored stored = EpochChain.choose(sealer, sealed, epoch, tip, () -> rows.containsKey(tip.epoch()));
      SnapshotEnvelope envelope = stored.envelope();
      lastEpoch = epoch;
      chain.appended(stored.link());
      envelopes.put(epoch, envelope);
      rows.put(epoch, new EpochChain.Row(epoch, envelope.getParentEpoch(), stored.link().baseEpoch(), false));
      records.put(epoch, new EpochRecord(epoch, envelope.getParentEpoch(), Instant.now(clock),
          envelope.getContentHash(), EpochStatus.ACTIVE, "", envelope.getProvenance().getCause()));
      if (stored.full()) {
        fullEnvelopes.remember(envelope, epoch);
      }
      return sealed;
    }
  }

  @Override
  public boolean checkpointDue() {
    synchronized (lock) {
      return chain.checkpointDue();
    }
  }

  @Override
  public void checkpoint(SnapshotEnvelope full) {
    EpochChain.checkCheckpoint(full);
    long epoch = full.getEpoch();
    synchronized (lock) {
      EpochChain.Row row = rows.get(epoch);
      EpochRecord record = records.get(epoch);
      if (!chain.wants(epoch) || row == null || row.full() || !record.contentHash().equals(full.getContentHash())) {
        return;
      }
      fullCopies.put(epoch, full);
      rows.put(epoch, new EpochChain.Row(epoch, row.parentEpoch(), row.baseEpoch(), true));
      chain.checkpointed(epoch, full.getSerializedSize());
      fullEnvelopes.remember(full, row.baseEpoch());
    }
  }

  @Override
  public Optional<SnapshotEnvelope> latest() {
    synchronized (lock) {
      return rows.isEmpty() ? Optional.empty() : load(rows.lastKey());
    }
  }

  @Override
  public Optional<SnapshotEnvelope> load(long epoch) {
    synchronized (lock) {
      EpochChain.Row row = rows.get(epoch);
      if (row == null) {
        return Optional.empty();
      }
      return Optional.of(fullEnvelopes.load(epoch, row.baseEpoch(), storedRows));
    }
  }

  @Override
  public List<SnapshotEnvelope> storedAfter(long epoch, int limit) {
    synchronized (lock) {
      return envelopes.tailMap(epoch, false).values().stream().limit(limit).toList();
    }
  }

  /** The rows as PostgresSnapshotStore reads them; called with lock held. */
  private final FullEnvelopes.Rows storedRows = new FullEnvelopes.Rows() {
    @Override
    public long nearestFullCopy(long base, long epoch) {
      for (EpochChain.Row r : rows.subMap(base, true, epoch, true).descendingMap().values()) {
        if (r.baseEpoch() == base && r.full()) {
          return r.epoch();
        }
      }
      return -1;
    }

    @Override
    public SnapshotEnvelope fullCopy(long epoch) {
      return rows.get(epoch).fullCopy() ? fullCopies.get(epoch) : envelopes.get(epoch);
    }

    @Override
    public NavigableMap<Long, SnapshotEnvelope> deltas(long base, long from, long to) {
      TreeMap<Long, SnapshotEnvelope> chain = new TreeMap<>();
      envelopes.subMap(from, true, to, true).forEach((e, envelope) -> {
        if (rows.get(e).baseEpoch() == base) {
          chain.put(e, envelope);
        }
      });
      return chain;
    }
  };

  @Override
  public List<EpochRecord> epochs(int limit, long beforeEpoch) {
    synchronized (lock) {
      return records.headMap(beforeEpoch, false).descendingMap().values().stream().limit(limit).toList();
    }
  }

  @Override
  public Optional<EpochRecord> epoch(long epoch) {
    synchronized (lock) {
      return Optional.ofNullable(records.get(epoch));
    }
  }

  @Override
  public Optional<EpochRecord> newestWithStatus(EpochStatus status) {
    synchronized (lock) {
      return records.descendingMap().values().stream().filter(r -> r.status() == status).findFirst();
    }
  }

  @Override
  public void setStatus(long epoch, EpochStatus status, String reason) {
    synchronized (lock) {
      EpochRecord r = records.get(epoch);
      if (r == null) {
        throw new IllegalArgumentException("no epoch " + epoch);
      }
      records.put(epoch, r.withStatus(status, reason));
    }
  }

  @Override
  public boolean replaceStatus(long epoch, EpochStatus expected, EpochStatus status, String reason) {
    synchronized (lock) {
      EpochRecord r = records.get(epoch);
      if (r == null || r.status() != expected) {
        return false;
      }
      records.put(epoch, r.withStatus(status, reason));
      return true;
    }
  }

  @Override
  public void recordRejection(RejectedCandidate candidate) {
    synchronized (lock) {
      rejections.add(candidate);
    }
  }

  @Override
  public List<RejectedCandidate> rejections(int limit) {
    synchronized (lock) {
      List<RejectedCandidate> newestFirst = new ArrayList<>(rejections);
      java.util.Collections.reverse(newestFirst);
      return newestFirst.stream().limit(limit).toList();
    }
  }

  @Override
  public void audit(AuditEntry entry) {
    synchronized (lock) {
      audit.add(entry);
    }
  }

  @Override
  public List<AuditEntry> auditLog(int limit) {
    synchronized (lock) {
      List<AuditEntry> newestFirst = new ArrayList<>(audit);
      java.util.Collections.reverse(newestFirst);
      // Stable: entries of the same instant stay newest written first.
      newestFirst.sort(java.util.Comparator.comparing(AuditEntry::at).reversed());
      return newestFirst.stream().limit(limit).toList();
    }
  }

  @Override
  public ClientStatusStore clients() {
    return clients;
  }

  private final java.util.concurrent.atomic.AtomicLong intentRevision = new java.util.concurrent.atomic.AtomicLong();
  private final InMemoryOverrideStore overrides = new InMemoryOverrideStore(intentRevision);
  private final InMemoryIntentStore intent = new InMemoryIntentStore(overrides, intentRevision);
  private final InMemoryLeaseStore leases = new InMemoryLeaseStore();
  private final InMemoryLoadReports loadReports = new InMemoryLoadReports();

  @Override
  public LoadReportStore loadReports() {
    return loadReports;
  }

  @Override
  public io.signalbox.store.StreamHistory history() {
    return history;
  }

  @Override
  public OverrideStore overrides() {
    return overrides;
  }

  @Override
  public IntentStore intent() {
    return intent;
  }

  @Override
  public int prune(int keepLast, Set<Long> alsoKeep) {
    if (keepLast < 1) {
      throw new IllegalArgumentException(
          "keepLast must be at least 1 (the newest epoch is what a restart serves), was " + keepLast);
    }
    synchronized (lock) {
      Set<Long> kept = EpochChain.retained(rows.values(), keepLast, alsoKeep);
      List<Long> doomed = rows.keySet().stream().filter(epoch -> !kept.contains(epoch)).toList();
      doomed.forEach(epoch -> {
        records.remove(epoch);
        envelopes.remove(epoch);
        fullCopies.remove(epoch);
        rows.remove(epoch);
      });
      return doomed.size();
    }
  }

  @Override
  public LeaseStore leases() {
    return leases;
  }

  @Override
  public void close() {}
}
