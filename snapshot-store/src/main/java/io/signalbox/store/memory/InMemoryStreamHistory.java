package io.signalbox.store.memory;

import io.signalbox.store.StreamEvent;
import io.signalbox.store.StreamHistory;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@link StreamHistory} for {@code store.url: memory} and tests: the events in append order. */
final class InMemoryStreamHistory implements StreamHistory {

  // Guarded by this; every method is short and calls nothing foreign.
  private final Deque<StreamEvent> events = new ArrayDeque<>();

  @Override
  public synchronized void append(List<StreamEvent> batch) {
    events.addAll(batch);
  }

  @Override
  public synchronized List<StreamEvent> ofNode(String nodeId, Instant since, String type, int limit) {
    List<StreamEvent> out = new ArrayList<>();
    for (StreamEvent e : events) {
      if (e.nodeId().equals(nodeId) && !e.at().isBefore(since)
          && (type == null || e.type().equals(type) || e.kind() == StreamEvent.Kind.CLOSED)) {
        out.add(e);
      }
    }
    // Ordered by time as PostgreSQL orders them; append order breaks ties, as its ids do.
    out.sort(java.util.Comparator.comparing(StreamEvent::at));
    return out.size() <= limit ? out : List.copyOf(out.subList(out.size() - limit, out.size()));
  }

  @Override
  public synchronized List<StreamEvent> latestAt(Instant at) {
    Map<List<Object>, StreamEvent> latest = new LinkedHashMap<>();
    for (StreamEvent e : events) {
      if (!e.at().isAfter(at)) {
        latest.merge(List.of(e.replicaId(), e.streamId(), e.type(), e.kind()), e,
            (was, now) -> now.at().isBefore(was.at()) ? was : now);
      }
    }
    return List.copyOf(latest.values());
  }

  @Override
  public synchronized long prune(Instant before, long keep) {
    long deleted = 0;
    for (Iterator<StreamEvent> i = events.iterator(); i.hasNext(); ) {
      if (i.next().at().isBefore(before)) {
        i.remove();
        deleted++;
      }
    }
    while (events.size() > keep) {
      events.removeFirst();
      deleted++;
    }
    return deleted;
  }

  @Override
  public synchronized long count() {
    return events.size();
  }
}
