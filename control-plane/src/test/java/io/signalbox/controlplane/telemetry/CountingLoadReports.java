package io.signalbox.controlplane.telemetry;

import io.signalbox.store.LoadReportStore;
import io.signalbox.store.memory.InMemoryLoadReports;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The in-memory load-report store, counting how often every client row is read and how many are written. */
public final class CountingLoadReports implements LoadReportStore {

  public final LoadReportStore rows = new InMemoryLoadReports();
  public final AtomicInteger clientReads = new AtomicInteger();
  /** Reads of the clusters with interval rows ({@link #clusters}). */
  public final AtomicInteger clusterReads = new AtomicInteger();
  /** Reads of load or drop rows: of one cluster, and of every cluster at once. */
  public final AtomicInteger rowReads = new AtomicInteger();
  public final AtomicInteger allRowReads = new AtomicInteger();
  /** Client rows written whole, and touched (their last report alone moved forward). */
  public final AtomicInteger clientsWritten = new AtomicInteger();
  public final AtomicInteger clientsTouched = new AtomicInteger();

  @Override
  public void write(List<LoadRow> loads, List<DropRow> drops, List<ClientLoadRow> clients) {
    rows.write(loads, drops, clients);
    clientsWritten.addAndGet(clients.size());
  }

  @Override
  public int touch(List<ClientFreshness> clients) {
    int found = rows.touch(clients);
    clientsTouched.addAndGet(clients.size());
    return found;
  }

  @Override
  public List<LoadRow> loads(String cluster, Instant since) {
    rowReads.incrementAndGet();
    return rows.loads(cluster, since);
  }

  @Override
  public List<DropRow> drops(String cluster, Instant since) {
    rowReads.incrementAndGet();
    return rows.drops(cluster, since);
  }

  @Override
  public List<LoadRow> loads(Instant since) {
    allRowReads.incrementAndGet();
    return rows.loads(since);
  }

  @Override
  public List<DropRow> drops(Instant since) {
    allRowReads.incrementAndGet();
    return rows.drops(since);
  }

  @Override
  public List<ClientLoadRow> clients(Instant since) {
    clientReads.incrementAndGet();
    return rows.clients(since);
  }

  @Override
  public List<String> clusters(Instant since) {
    clusterReads.incrementAndGet();
    return rows.clusters(since);
  }

  @Override
  public int deleteBefore(Instant cutoff) {
    return rows.deleteBefore(cutoff);
  }
}
