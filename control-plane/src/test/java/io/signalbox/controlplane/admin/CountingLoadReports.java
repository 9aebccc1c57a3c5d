package io.signalbox.controlplane.admin;

import io.signalbox.store.LoadReportStore;
import io.signalbox.store.memory.InMemoryLoadReports;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The in-memory load-report store, counting how often every client row is read. */
final class CountingLoadReports implements LoadReportStore {

  final LoadReportStore rows = new InMemoryLoadReports();
  final AtomicInteger clientReads = new AtomicInteger();

  @Override
  public void write(List<LoadRow> loads, List<DropRow> drops, List<ClientLoadRow> clients) {
    rows.write(loads, drops, clients);
  }

  @Override
  public List<LoadRow> loads(String cluster, Instant since) {
    return rows.loads(cluster, since);
  }

  @Override
  public List<DropRow> drops(String cluster, Instant since) {
    return rows.drops(cluster, since);
  }

  @Override
  public List<ClientLoadRow> clients(Instant since) {
    clientReads.incrementAndGet();
    return rows.clients(since);
  }

  @Override
  public List<String> clusters(Instant since) {
    return rows.clusters(since);
  }

  @Override
  public int deleteBefore(Instant cutoff) {
    return rows.deleteBefore(cutoff);
  }
}
