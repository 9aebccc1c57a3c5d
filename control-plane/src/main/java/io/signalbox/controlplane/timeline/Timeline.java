package io.signalbox.controlplane.timeline;

import io.signalbox.store.AuditEntry;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.NackEvent;
import io.signalbox.store.RejectedCandidate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Everything the store recorded since a time, as one list, oldest first: epochs with their causes,
 * rejected candidates, the audit trail (operators' actions and the control plane's own) and NACKs,
 * one line per epoch, type and message however many clients sent it.
 *
 * @param since the oldest time asked for
 * @param events oldest first; at most the newest {@code limit} asked for
 * @param truncated whether older events since {@code since} exist and are not listed: more than
 *     the limit, or more than one of the records holds within what is read of it
 */
public record Timeline(Instant since, List<TimelineEvent> events, boolean truncated) {

  public Timeline {
    events = List.copyOf(events);
  }

  /** Clients named on a NACK's line; the rest are counted. */
  static final int NACK_CLIENTS_NAMED = 3;

  /**
   * What was read of each record, newest first as the store lists them.
   *
   * @param complete whether each list holds every record since the time asked for (false when a
   *     read stopped at its limit first)
   */
  public record Records(List<EpochRecord> epochs, List<RejectedCandidate> rejections, List<AuditEntry> audit,
      List<NackEvent> nacks, boolean complete) {
    public Records {
      epochs = List.copyOf(epochs);
      rejections = List.copyOf(rejections);
      audit = List.copyOf(audit);
      nacks = List.copyOf(nacks);
    }
  }

  /**
   * The timeline of {@code records} from {@code since} on. Events at the same instant keep the
   * order of their records (audit, rejections, epochs, NACKs) and, within one, the order written:
   * an operator's action is stamped when it arrived, before the epoch it caused.
   */
  public static Timeline of(Records records, Instant since, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, was " + limit);
    }
    List<TimelineEvent> all = new ArrayList<>();
    // The store lists newest first; reversed, equal instants keep the order they were written in.
    for (AuditEntry a : reversed(records.audit())) {
      all.add(new TimelineEvent(a.at(), TimelineKind.ofAction(a.action()), a.actor(), a.action(), a.target(),
          a.reason()));
    }
    for (RejectedCandidate r : reversed(records.rejections())) {
      all.add(new TimelineEvent(r.at(), TimelineKind.REJECTION, SystemAudit.ACTOR, "reject", r.cause(),
          String.join("; ", r.violations())));
    }
    for (EpochRecord e : reversed(records.epochs())) {
      all.add(new TimelineEvent(e.createdAt(), TimelineKind.EPOCH, SystemAudit.ACTOR, "publish", "epoch " + e.epoch(),
          e.cause() + (e.status() == EpochStatus.REJECTED ? " (REJECTED: " + e.reason() + ")" : "")));
    }
    all.addAll(nacks(reversed(records.nacks())));
    List<TimelineEvent> kept = new ArrayList<>(all.stream()
        .filter(e -> !e.at().isBefore(since))
        .sorted(Comparator.comparing(TimelineEvent::at))
        .toList());
    boolean truncated = !records.complete() || kept.size() > limit;
    return new Timeline(since, kept.subList(Math.max(0, kept.size() - limit), kept.size()), truncated);
  }

  private record NackKey(long snapshotEpoch, String typeUrl, String message) {}

  /** One line per epoch, type and message, at the first NACK of it, naming its clients. */
  private static List<TimelineEvent> nacks(List<NackEvent> oldestFirst) {
    Map<NackKey, List<NackEvent>> grouped = new LinkedHashMap<>();
    for (NackEvent n : oldestFirst) {
      grouped.computeIfAbsent(new NackKey(n.snapshotEpoch(), n.client().typeUrl(), n.message()),
          k -> new ArrayList<>()).add(n);
    }
    List<TimelineEvent> out = new ArrayList<>();
    grouped.forEach((key, events) -> {
      TreeSet<String> nodes = new TreeSet<>();
      events.forEach(n -> nodes.add(n.client().nodeId()));
      List<String> named = nodes.stream().limit(NACK_CLIENTS_NAMED).toList();
      String actor = String.join(", ", named)
          + (nodes.size() > named.size() ? " and " + (nodes.size() - named.size()) + " more" : "");
      String type = key.typeUrl().substring(key.typeUrl().lastIndexOf('.') + 1);
      out.add(new TimelineEvent(events.get(0).at(), TimelineKind.NACK, actor, "nack",
          "epoch " + key.snapshotEpoch() + " " + type, key.message()));
    });
    return out;
  }

  private static <T> List<T> reversed(List<T> newestFirst) {
    List<T> out = new ArrayList<>(newestFirst);
    java.util.Collections.reverse(out);
    return out;
  }
}
