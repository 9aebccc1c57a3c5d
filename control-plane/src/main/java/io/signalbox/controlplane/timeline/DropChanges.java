package io.signalbox.controlplane.timeline;

import io.signalbox.controlplane.reconcile.AutomaticDrops;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The automatic drops admission raised, changed or lifted since its last hand-over to the writer,
 * per cluster, as audit entries to write. Admission hands over a cause on its first decision even
 * when nothing changed; this compares the drops themselves. Confined to admission's thread.
 */
public final class DropChanges {

  private Map<String, Integer> last = Map.of();

  public List<StateChanges.Change> next(AutomaticDrops drops) {
    if (!drops.decided()) {
      // Not leading (any more): the next leader decides, and this one starts afresh if it leads again.
      last = Map.of();
      return List.of();
    }
    Map<String, Integer> now = new TreeMap<>();
    drops.byCluster().forEach((cluster, e) -> now.put(cluster, e.perMillion()));
    TreeSet<String> clusters = new TreeSet<>(now.keySet());
    clusters.addAll(last.keySet());
    List<StateChanges.Change> out = new ArrayList<>();
    for (String cluster : clusters) {
      Integer before = last.get(cluster);
      Integer after = now.get(cluster);
      if (after == null) {
        out.add(new StateChanges.Change(SystemAudit.AUTOMATIC_DROP, "cluster " + cluster, "lifted"));
      } else if (!after.equals(before)) {
        out.add(new StateChanges.Change(SystemAudit.AUTOMATIC_DROP, "cluster " + cluster,
            "drops " + percent(after) + " of calls: " + drops.byCluster().get(cluster).cause()));
      }
    }
    last = now;
    return out;
  }

  private static String percent(int perMillion) {
    return java.math.BigDecimal.valueOf(perMillion, 4).stripTrailingZeros().toPlainString() + " %";
  }
}
