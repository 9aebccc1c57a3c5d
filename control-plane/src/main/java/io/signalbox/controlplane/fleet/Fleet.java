package io.signalbox.controlplane.fleet;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.TypeStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Where the fleet stands against the current epoch: per client, per node group, per epoch. Pure:
 * the caller supplies the clients, the epochs' creation times and the time.
 */
public final class Fleet {

  /** The group of clients that send no {@code node.cluster}. */
  static final String NO_GROUP = "none";

  private Fleet() {}

  /**
   * One client with its lag.
   *
   * @param heldEpoch the newest epoch whose whole configuration the client holds: its {@code epoch},
   *     but below any epoch it still refuses. The xDS server counts a client that NACKed as synced
   *     (it is offered what it holds), yet that client has not converged to the epoch it refused.
   * @param lagEpochs how many epochs it is behind: current epoch − heldEpoch
   * @param lagSeconds how long it has been behind: now − the creation of the first epoch it lacks
   * @param nacking its latest NACK of some type is newer than what it ACKed of that type
   */
  public record ClientView(@JsonUnwrapped ClientStatus client, String group, long heldEpoch, long lagEpochs,
      double lagSeconds, boolean nacking) {}

  /** One client's standing NACK of one type, with the client's own error text. */
  record Nack(String nodeId, String group, String type, long epoch, long ackedEpoch, String message, Instant at) {}

  record Group(String group, int clients, int onCurrentEpoch, long maxLagEpochs, double meanLagEpochs,
      double maxLagSeconds, int nacking) {}

  /**
   * Every standing NACK of one type with one message: a fleet refusing the same thing reads as one
   * row, not a thousand.
   *
   * @param groups the node groups of those clients, by name
   */
  record NackGroup(String type, String message, int clients, List<String> groups, long minEpoch, long maxEpoch,
      Instant firstAt, Instant lastAt) {}

  /**
   * @param byEpoch how many clients hold each epoch ({@link ClientView#heldEpoch}), newest first
   * @param nacks standing NACKs, newest first, at most {@code nackLimit}
   * @param nacksByMessage every standing NACK grouped by type and message, most clients first, at
   *     most {@code nackLimit} groups
   */
  record Summary(long epoch, Instant epochCreatedAt, int clients, int onCurrentEpoch, int nacking,
      Map<Long, Integer> byEpoch, List<Group> groups, List<Nack> nacks, List<NackGroup> nacksByMessage) {}

  static String group(ClientStatus c) {
    return c.nodeCluster() == null || c.nodeCluster().isBlank() ? NO_GROUP : c.nodeCluster();
  }

  /** True when the newest NACK of the type came after its last ACK, i.e. the client still refuses it. */
  static boolean standing(TypeStatus t) {
    return t.nack() != null && t.nack().epoch() > t.ackedEpoch();
  }

  /**
   * @param createdAt creation time of known epochs; a client older than all of them is reported as
   *     behind since the oldest known one (a lower bound)
   */
  public static ClientView view(ClientStatus c, long current, NavigableMap<Long, Instant> createdAt, Instant now) {
    long held = c.epoch();
    for (TypeStatus t : c.types().values()) {
      if (standing(t)) {
        held = Math.min(held, t.nack().epoch() - 1);
      }
    }
    held = Math.max(0, held);
    long lag = Math.max(0, current - held);
    double seconds = 0;
    if (lag > 0) {
      Map.Entry<Long, Instant> firstMissing = createdAt.higherEntry(held);
      if (firstMissing != null) {
        seconds = Math.max(0, Duration.between(firstMissing.getValue(), now).toMillis() / 1000.0);
      }
    }
    boolean nacking = c.types().values().stream().anyMatch(Fleet::standing);
    return new ClientView(c, group(c), held, lag, seconds, nacking);
  }

  /** Most behind first, so a truncated list shows the clients that need attention. */
  public static final Comparator<ClientView> WORST_FIRST = Comparator
      .comparing(ClientView::nacking).reversed()
      .thenComparing(Comparator.comparingLong(ClientView::lagEpochs).reversed())
      .thenComparing(v -> v.client().nodeId())
      .thenComparingLong(v -> v.client().streamId());

  public static Summary summarize(List<ClientView> views, long current, Instant currentCreatedAt, int nackLimit) {
    Map<Long, Integer> byEpoch = new TreeMap<>(Comparator.reverseOrder());
    Map<String, List<ClientView>> groups = new TreeMap<>();
    List<Nack> nacks = new ArrayList<>();
    int onCurrent = 0;
    int nacking = 0;
    for (ClientView v : views) {
      byEpoch.merge(v.heldEpoch(), 1, Integer::sum);
      groups.computeIfAbsent(v.group(), g -> new ArrayList<>()).add(v);
      onCurrent += v.lagEpochs() == 0 ? 1 : 0;
      nacking += v.nacking() ? 1 : 0;
      v.client().types().forEach((type, t) -> {
        if (standing(t)) {
          nacks.add(new Nack(v.client().nodeId(), v.group(), type, t.nack().epoch(), t.ackedEpoch(),
              t.nack().message(), t.nack().at()));
        }
      });
    }
    nacks.sort(Comparator.comparing(Nack::at, Comparator.nullsLast(Comparator.reverseOrder()))
        .thenComparing(Nack::nodeId).thenComparing(Nack::type));
    List<Group> groupRows = groups.entrySet().stream().map(e -> group(e.getKey(), e.getValue())).toList();
    List<NackGroup> byMessage = byMessage(nacks);
    return new Summary(current, currentCreatedAt, views.size(), onCurrent, nacking, byEpoch, groupRows,
        List.copyOf(nacks.subList(0, Math.min(nackLimit, nacks.size()))),
        List.copyOf(byMessage.subList(0, Math.min(nackLimit, byMessage.size()))));
  }

  private static List<NackGroup> byMessage(List<Nack> nacks) {
    Map<List<String>, List<Nack>> same = new TreeMap<>(Comparator.comparing((List<String> k) -> k.get(0))
        .thenComparing(k -> k.get(1)));
    nacks.forEach(n -> same.computeIfAbsent(List.of(n.type(), n.message() == null ? "" : n.message()),
        k -> new ArrayList<>()).add(n));
    List<NackGroup> out = new ArrayList<>();
    same.forEach((key, members) -> out.add(new NackGroup(key.get(0), key.get(1),
        (int) members.stream().map(Nack::nodeId).distinct().count(),
        members.stream().map(Nack::group).distinct().sorted().toList(),
        members.stream().mapToLong(Nack::epoch).min().orElse(0),
        members.stream().mapToLong(Nack::epoch).max().orElse(0),
        members.stream().map(Nack::at).filter(java.util.Objects::nonNull).min(Comparator.naturalOrder()).orElse(null),
        members.stream().map(Nack::at).filter(java.util.Objects::nonNull).max(Comparator.naturalOrder()).orElse(null))));
    out.sort(Comparator.comparingInt(NackGroup::clients).reversed().thenComparing(NackGroup::type)
        .thenComparing(NackGroup::message));
    return out;
  }

  static Group group(String name, List<ClientView> members) {
    long max = 0;
    long sum = 0;
    double maxSeconds = 0;
    int onCurrent = 0;
    int nacking = 0;
    for (ClientView v : members) {
      max = Math.max(max, v.lagEpochs());
      sum += v.lagEpochs();
      maxSeconds = Math.max(maxSeconds, v.lagSeconds());
      onCurrent += v.lagEpochs() == 0 ? 1 : 0;
      nacking += v.nacking() ? 1 : 0;
    }
    double mean = members.isEmpty() ? 0 : (double) sum / members.size();
    return new Group(name, members.size(), onCurrent, max, mean, maxSeconds, nacking);
  }
}
