package io.signalbox.controlplane.reconcile;

import io.signalbox.source.SourceState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which sources changed since the last epoch, for the cause its provenance records. The build
 * trigger keeps the first signal of a burst only, so epoch 1's cause named whichever source
 * reported first — "source registry generation 1", empty — although the file supplied every
 * endpoint. Confined to the writer thread.
 */
final class ChangedSources {

  /** The sources as the last epoch (or a build that changed nothing) was built from. */
  private Map<String, SourceState> built = Map.of();

  /**
   * The cause to record: every source whose endpoints changed since the last build, as {@code
   * source <id> generation <n>}, comma-separated — in place of {@code signalled} when that is a
   * source's own signal or the first build's {@code startup}, after it otherwise (a config change,
   * an operator: {@code config file changed; source file:/e.yaml generation 4}). {@code signalled}
   * alone when no source's endpoints changed. A source seen for the first time counts only if it
   * brings endpoints.
   */
  String cause(String signalled, Collection<SourceState> now) {
    List<String> changed = new ArrayList<>();
    for (SourceState s : now) {
      SourceState was = built.get(s.sourceId());
      boolean differs = was == null ? !s.endpoints().isEmpty()
          : was != s && was.generation() != s.generation() && !was.endpoints().equals(s.endpoints());
      if (differs) {
        changed.add("source " + s.sourceId() + " generation " + s.generation());
      }
    }
    if (changed.isEmpty()) {
      return signalled;
    }
    String sources = String.join(", ", changed);
    return signalled.startsWith("source ") || signalled.equals("startup") ? sources : signalled + "; " + sources;
  }

  /** Remembers {@code now} as what the served epoch was built from. */
  void built(Collection<SourceState> now) {
    Map<String, SourceState> next = new HashMap<>();
    now.forEach(s -> next.put(s.sourceId(), s));
    built = next;
  }
}
