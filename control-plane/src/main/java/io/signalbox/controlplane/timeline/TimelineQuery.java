package io.signalbox.controlplane.timeline;

import io.signalbox.store.SnapshotStore;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * Reads a {@link Timeline} from the store's records. Each is read newest first up to a bound, and
 * the timeline says it is truncated when a read stopped at its bound before reaching the time
 * asked for. Bounded by what the store keeps: epochs by {@code store.retainEpochs}, the rest as long
 * as the store keeps them.
 */
public final class TimelineQuery {

  /** NACKs are read further than the other records: one line stands for every client that sent it. */
  static final int NACKS_PER_LINE = 20;
  static final int MAX_NACKS = 20_000;

  private TimelineQuery() {}

  public static Timeline run(SnapshotStore store, Instant since, int limit) {
    int nackLimit = (int) Math.min(MAX_NACKS, (long) limit * NACKS_PER_LINE);
    var epochs = store.epochs(limit, Long.MAX_VALUE);
    var rejections = store.rejections(limit);
    var audit = store.auditLog(limit);
    var nacks = store.clients().recentNacks(nackLimit);
    boolean complete = reachedSince(epochs, limit, e -> e.createdAt(), since)
        && reachedSince(rejections, limit, r -> r.at(), since)
        && reachedSince(audit, limit, a -> a.at(), since)
        && reachedSince(nacks, nackLimit, n -> n.at(), since);
    return Timeline.of(new Timeline.Records(epochs, rejections, audit, nacks, complete), since, limit);
  }

  /** Whether a read of at most {@code limit}, newest first, holds everything since {@code since}. */
  private static <T> boolean reachedSince(List<T> newestFirst, int limit, Function<T, Instant> at, Instant since) {
    return newestFirst.size() < limit || at.apply(newestFirst.get(newestFirst.size() - 1)).isBefore(since);
  }
}
