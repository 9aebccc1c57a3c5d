package io.signalbox.controlplane.reconcile;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.validation.DropRules;
import java.util.Map;
import java.util.TreeMap;

/**
 * The automatic drops a build adds (category {@value #CATEGORY}, after the operator's), per
 * cluster with its cause; decided by {@code admission/AutoShedding} on the leader once per
 * load-report interval.
 *
 * @param decided false until this process, leading, has decided once: a build then keeps the drops
 *     the parent epoch carries, so a new leader starts from the last published drop instead of
 *     lifting it
 */
public record AutomaticDrops(boolean decided, Map<String, Entry> byCluster) {

  /** The category clients name in "Dropped: ..." and count in their load reports. */
  public static final String CATEGORY = "signalbox_overload";

  /** Keep what the parent epoch carries. */
  public static final AutomaticDrops INHERITED = new AutomaticDrops(false, Map.of());

  /** @param cause eligible capacity, demand and the drop, in words */
  public record Entry(int perMillion, String cause) {}

  public AutomaticDrops {
    byCluster = Map.copyOf(byCluster);
  }

  /** What a build applies: these, or the parent's when not decided yet. */
  AutomaticDrops resolve(Snapshot parent) {
    return decided ? this : inherited(parent);
  }

  /** The automatic drops {@code epoch} carries, with the causes its provenance gives them. */
  public static AutomaticDrops inherited(Snapshot epoch) {
    Map<String, Entry> out = new TreeMap<>();
    if (epoch == null) {
      return new AutomaticDrops(true, out);
    }
    Map<String, String> causes = epoch.provenance().getAutomaticDropsMap();
    for (String cluster : causes.keySet()) {
      int perMillion = perMillion(epoch, cluster);
      if (perMillion > 0) {
        out.put(cluster, new Entry(perMillion, causes.get(cluster)));
      }
    }
    return new AutomaticDrops(true, out);
  }

  /**
   * The {@value #CATEGORY} drop {@code epoch}'s assignment of {@code cluster} carries, 0 if none.
   * Read from the assignment's content, built or restored: a follower and a new leader hold the
   * epoch as the store gave it, and reading only a built message there made a new leader start
   * from 0 and lift the drop (LeaderChangeSheddingIT).
   */
  public static int perMillion(Snapshot epoch, String cluster) {
    XdsResource r = epoch == null ? null : epoch.resources(XdsType.ENDPOINT).get(cluster);
    if (r == null) {
      return 0;
    }
    for (ClusterLoadAssignment.Policy.DropOverload d
        : r.content(ClusterLoadAssignment.class).getPolicy().getDropOverloadsList()) {
      if (d.getCategory().equals(CATEGORY)) {
        return (int) DropRules.perMillion(d.getDropPercentage());
      }
    }
    return 0;
  }

  public int perMillion(String cluster) {
    Entry e = byCluster.get(cluster);
    return e == null ? 0 : e.perMillion();
  }
}
