package io.signalbox.controlplane.reconcile;

import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The writer's inputs: latest-wins slots for the config, each source's full state and the
 * automatic drops, written by any thread. A build {@link #take takes} them once, so everything it
 * decides and records comes from one reading, and a stale input is skipped, never queued.
 */
final class Inputs {

  private volatile DesiredStateTemplate config;
  // How many configs were offered: tells a build of a fixed config file from one of the old config.
  private final AtomicLong configOffers = new AtomicLong();
  private final Map<String, SourceState> sources = new ConcurrentHashMap<>();
  private volatile AutomaticDrops automaticDrops = AutomaticDrops.INHERITED;
  // Confined to the writer thread.
  private final ChangedSources changed = new ChangedSources();

  /**
   * What one build saw.
   *
   * @param configOffers configs offered when it was taken (see {@link Rejections})
   * @param config the newest config; null before the first
   * @param seen every source's state
   * @param cause the signal, with the sources that changed since the last build
   */
  record Taken(long configOffers, DesiredStateTemplate config, List<SourceState> seen, String cause,
      AutomaticDrops automaticDrops) {

    /** The epoch's provenance: its cause, the source generations it saw and the drain ACKs it used. */
    Provenance provenance(Set<EndpointRef> acked) {
      Provenance.Builder p = Provenance.newBuilder().setCause(cause);
      seen.forEach(s -> p.putSourceGenerations(s.sourceId(), Long.toString(s.generation())));
      acked.stream().map(EndpointRef::toString).sorted().forEach(p::addDrainsAcknowledged);
      return p.build();
    }
  }

  void config(DesiredStateTemplate newConfig) {
    config = newConfig;
    configOffers.incrementAndGet();
  }

  void source(SourceState state) {
    sources.put(state.sourceId(), state);
  }

  void automaticDrops(AutomaticDrops drops) {
    automaticDrops = drops;
  }

  DesiredStateTemplate config() {
    return config;
  }

  /** Every source's state now, for a rehearsal ({@link Rehearsal}); a build takes them with {@link #take}. */
  List<SourceState> sources() {
    return List.copyOf(sources.values());
  }

  long configOffers() {
    return configOffers.get();
  }

  /** On the writer thread: the inputs as one build sees them, {@code signalled} naming its wake-up. */
  Taken take(String signalled) {
    long offers = configOffers.get();
    List<SourceState> seen = List.copyOf(sources.values());
    return new Taken(offers, config, seen, changed.cause(signalled, seen), automaticDrops);
  }

  /** On the writer thread: {@code taken} is what the served content was built from. */
  void built(Taken taken) {
    changed.built(taken.seen());
  }

  Map<String, SourceHealth> health() {
    Map<String, SourceHealth> health = new TreeMap<>();
    sources.forEach((id, s) -> health.put(id, s.health()));
    return health;
  }

  /** Each source's problems, for the sources that have any. */
  Map<String, List<String>> problems() {
    Map<String, List<String>> problems = new TreeMap<>();
    sources.forEach((id, s) -> {
      if (!s.problems().isEmpty()) {
        problems.put(id, s.problems().stream().map(Violation::toString).toList());
      }
    });
    return problems;
  }
}
