package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.store.StoredIntent;
import io.signalbox.store.StoredOverride;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Operator intent as the writer applies it: the freeze, the endpoint overrides, the quarantine and
 * the confirmations of held updates. One immutable value, replaced (never changed) by
 * {@link Interventions} after the store has the change; the writer reads it once per build, so a
 * build sees one moment of it. Equal to {@link #from} of what the store then holds.
 *
 * @param freeze the freeze in force, or null
 * @param confirmations cluster -> the fingerprint of the held update an operator let through
 * @param ejections {@link EndpointRef#toString()} -> how many ejections it ever had (its back-off)
 * @param ejectionFreeze the freeze of ejections in force, or null: the build holds ejections a
 *     source asks for while it is set ({@link io.signalbox.lifecycle.EjectionHold})
 * @param drops the operator's drops, per cluster in the order clients apply them
 */
public record Intent(
    StoredIntent.Freeze freeze,
    List<OperatorOverride> overrides,
    Map<Quarantine.Key, Quarantine.Entry> quarantine,
    Map<String, String> confirmations,
    Map<String, Integer> ejections,
    StoredIntent.Freeze ejectionFreeze,
    List<StoredIntent.Drop> drops) {

  public static final Intent NONE = new Intent(null, List.of(), Map.of(), Map.of(), Map.of(), null, List.of());

  public Intent {
    overrides = List.copyOf(overrides);
    quarantine = Map.copyOf(quarantine);
    confirmations = Map.copyOf(confirmations);
    ejections = Map.copyOf(ejections);
    drops = List.copyOf(drops);
  }

  public boolean frozen() {
    return freeze != null;
  }

  /** What the store holds, as the writer applies it. */
  static Intent from(StoredIntent s) {
    Map<Quarantine.Key, Quarantine.Entry> quarantine = new HashMap<>();
    s.quarantine().forEach(q -> quarantine.put(new Quarantine.Key(XdsType.valueOf(q.type()), q.name()),
        new Quarantine.Entry(q.rejectedVersion(), q.restoreEpoch(), q.reason(), q.actor(), q.at())));
    Map<String, String> confirmations = new HashMap<>();
    s.confirmations().forEach(c -> confirmations.put(c.cluster(), c.fingerprint()));
    return new Intent(s.freeze(), s.overrides().stream().map(Intent::toOverride).toList(), quarantine, confirmations,
        s.ejections(), s.ejectionFreeze(), s.drops());
  }

  Intent withFreeze(StoredIntent.Freeze f) {
    return new Intent(f, overrides, quarantine, confirmations, ejections, ejectionFreeze, drops);
  }

  /** {@code o} in place of an override of the same kind and endpoint; an ejection also counts. */
  Intent withOverride(OperatorOverride o) {
    List<OperatorOverride> next = new ArrayList<>(overrides.size() + 1);
    overrides.stream().filter(old -> !sameSlot(old, o.getClass(), o.endpoint())).forEach(next::add);
    next.add(o);
    Map<String, Integer> counts = ejections;
    if (o instanceof OperatorOverride.Eject) {
      counts = new HashMap<>(ejections);
      counts.merge(o.endpoint().toString(), 1, Integer::sum);
    }
    return new Intent(freeze, next, quarantine, confirmations, counts, ejectionFreeze, drops);
  }

  Intent withoutOverride(Class<? extends OperatorOverride> kind, EndpointRef endpoint) {
    return new Intent(freeze, overrides.stream().filter(o -> !sameSlot(o, kind, endpoint)).toList(), quarantine,
        confirmations, ejections, ejectionFreeze, drops);
  }

  Intent withQuarantined(Map<Quarantine.Key, Quarantine.Entry> entries) {
    Map<Quarantine.Key, Quarantine.Entry> next = new HashMap<>(quarantine);
    next.putAll(entries);
    return new Intent(freeze, overrides, next, confirmations, ejections, ejectionFreeze, drops);
  }

  /**
   * A resource served as an older epoch has it, not as the inputs say: held back by an operator's
   * rollback or after clients rejected it, until an edit changes its input.
   *
   * @param type the xDS type's short name ({@code CLUSTER}, {@code LISTENER}, {@code ROUTE})
   * @param epoch the epoch whose version is served
   * @param reason why ("rollback to epoch 13 by alice: bad route", "epochs 14..15 rejected: ...")
   */
  public record Restored(String type, String name, long epoch, String reason, String actor, java.time.Instant at) {}

  /** Every resource the quarantine serves from an older epoch, oldest first. */
  public List<Restored> restored() {
    List<Restored> out = new ArrayList<>();
    quarantine.forEach((k, e) -> out.add(new Restored(k.type().name(), k.name(), e.restoreEpoch(), e.reason(),
        e.actor(), e.at())));
    out.sort(java.util.Comparator.comparing(Restored::at).thenComparing(Restored::type).thenComparing(Restored::name));
    return out;
  }

  /** Without the entry of {@code key} if it still holds back {@code rejectedVersion}. */
  Intent lifted(Quarantine.Key key, String rejectedVersion) {
    Quarantine.Entry e = quarantine.get(key);
    if (e == null || !e.rejectedVersion().equals(rejectedVersion)) {
      return this;
    }
    Map<Quarantine.Key, Quarantine.Entry> next = new HashMap<>(quarantine);
    next.remove(key);
    return new Intent(freeze, overrides, next, confirmations, ejections, ejectionFreeze, drops);
  }

  Intent withConfirmation(String cluster, String fingerprint) {
    Map<String, String> next = new HashMap<>(confirmations);
    next.put(cluster, fingerprint);
    return new Intent(freeze, overrides, quarantine, next, ejections, ejectionFreeze, drops);
  }

  Intent withoutConfirmation(String cluster) {
    Map<String, String> next = new HashMap<>(confirmations);
    next.remove(cluster);
    return new Intent(freeze, overrides, quarantine, next, ejections, ejectionFreeze, drops);
  }

  Intent withEjectionFreeze(StoredIntent.Freeze f) {
    return new Intent(freeze, overrides, quarantine, confirmations, ejections, f, drops);
  }

  /** {@code d} in place of the drop of the same cluster and category (keeping its place), or added. */
  Intent withDrop(StoredIntent.Drop d) {
    List<StoredIntent.Drop> next = new ArrayList<>(drops.size() + 1);
    boolean replaced = false;
    for (StoredIntent.Drop old : drops) {
      if (old.cluster().equals(d.cluster()) && old.category().equals(d.category())) {
        next.add(new StoredIntent.Drop(d.cluster(), d.category(), d.perMillion(), d.actor(), d.reason(), old.at()));
        replaced = true;
      } else {
        next.add(old);
      }
    }
    if (!replaced) {
      next.add(d);
    }
    next.sort(java.util.Comparator.comparing(StoredIntent.Drop::cluster).thenComparing(StoredIntent.Drop::at)
        .thenComparing(StoredIntent.Drop::category));
    return new Intent(freeze, overrides, quarantine, confirmations, ejections, ejectionFreeze, next);
  }

  /** Without the drops of {@code cluster}: only {@code category}'s, or all when it is null. */
  Intent withoutDrops(String cluster, String category) {
    return new Intent(freeze, overrides, quarantine, confirmations, ejections, ejectionFreeze, drops.stream()
        .filter(d -> !(d.cluster().equals(cluster) && (category == null || d.category().equals(category)))).toList());
  }

  /** The drops of {@code cluster}, in the order clients apply them. */
  public List<StoredIntent.Drop> dropsOf(String cluster) {
    return drops.stream().filter(d -> d.cluster().equals(cluster)).toList();
  }

  /** How many times {@code endpoint} was ejected before. */
  int ejectionsOf(EndpointRef endpoint) {
    return ejections.getOrDefault(endpoint.toString(), 0);
  }

  private static boolean sameSlot(OperatorOverride o, Class<? extends OperatorOverride> kind, EndpointRef endpoint) {
    return o.getClass() == kind && o.endpoint().equals(endpoint);
  }

  static OperatorOverride toOverride(StoredOverride s) {
    EndpointRef ref = new EndpointRef(s.cluster(), s.address(), s.port());
    return switch (s.kind()) {
      case "drain" -> new OperatorOverride.Drain(ref, s.actor(), s.reason(), s.createdAt(),
          Duration.between(s.createdAt(), s.deadline() == null ? s.createdAt() : s.deadline()));
      case "eject" -> new OperatorOverride.Eject(ref, s.actor(), s.reason(), s.createdAt(), s.deadline(),
          Interventions.EJECTION_WARMUP);
      case "weight" -> new OperatorOverride.Weight(ref, s.actor(), s.reason(), s.createdAt(), s.value());
      default -> throw new IllegalStateException("stored override of unknown kind '" + s.kind() + "' for " + ref);
    };
  }
}
