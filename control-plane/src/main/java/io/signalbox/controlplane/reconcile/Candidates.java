package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.translate.DropOverloads;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.source.SourceState;
import io.signalbox.validation.ValidationResult;
import io.signalbox.validation.Validator;
import io.signalbox.validation.Violation;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * The inputs as the next epoch's candidate, or the reasons they cannot be one: sources merged,
 * endpoints given their lifecycle under the operator intent, the desired state validated,
 * translated to Envoy resources, the operator's drops added, quarantined resources restored, and the changed resources checked
 * against Envoy's own rules. Nothing is stored or published here; the writer thread alone calls it.
 *
 * <p>A build takes one value ({@link Input}) and returns what it changes elsewhere as values
 * ({@link Effects}), which the writer applies in one place: it reads no live ACK state and queues
 * no intent writes while it builds, so an epoch's content follows from its input.
 */
final class Candidates {

  /**
   * Everything one build reads, taken once.
   *
   * @param sources each source's state as the build sees it
   * @param parent the epoch served now, or null before the first
   * @param drainsAcknowledged the DRAINING endpoints every client holding their cluster has ACKed,
   *     when the build began (also recorded in {@code provenance})
   * @param automatic the automatic drops (issue 31), after the operator's; their causes go into
   *     {@code provenance}
   */
  record Input(DesiredStateTemplate template, ClusterSpecs specs, List<SourceState> sources, Intent intent,
      Snapshot parent, Set<EndpointRef> drainsAcknowledged, Provenance provenance, AutomaticDrops automatic) {
    Input {
      sources = List.copyOf(sources);
      drainsAcknowledged = Set.copyOf(drainsAcknowledged);
      automatic = automatic == null ? AutomaticDrops.INHERITED : automatic;
    }

    /** Without a decision on automatic drops: the parent's are kept. */
    Input(DesiredStateTemplate template, ClusterSpecs specs, List<SourceState> sources, Intent intent,
        Snapshot parent, Set<EndpointRef> drainsAcknowledged, Provenance provenance) {
      this(template, specs, sources, intent, parent, drainsAcknowledged, provenance, AutomaticDrops.INHERITED);
    }
  }

  /**
   * What a build changes beyond its candidate, for the writer to apply.
   *
   * @param lifted quarantine entries whose input changed (to drop from the intent)
   * @param spentConfirmations clusters whose confirmed hold is no longer held (to forget)
   * @param nextWake when the served endpoints change by themselves (a drain deadline, a backoff
   *     ending), so a build runs then without new input; null for never
   */
  record Effects(Map<Quarantine.Key, String> lifted, Set<String> spentConfirmations, Instant nextWake) {
    Effects {
      // Copies that allow what the inputs allow (a quarantine entry may hold back no version).
      lifted = java.util.Collections.unmodifiableMap(new java.util.HashMap<>(lifted));
      spentConfirmations = java.util.Collections.unmodifiableSet(new java.util.HashSet<>(spentConfirmations));
    }
  }

  /** What the inputs give. */
  sealed interface Result permits Refused, Built {
    Effects effects();
  }

  /** The inputs break a rule: no epoch, the last one keeps serving. */
  record Refused(List<Violation> errors, List<Violation> warnings, Effects effects) implements Result {}

  /** A candidate (possibly with the parent's content), and the validator's warnings about it. */
  record Built(SnapshotCandidate candidate, List<Violation> warnings, Effects effects) implements Result {}

  private final Clock clock;
  private final Validator validator;
  private final Translator translator;
  private final ResourceCheck resourceCheck;
  private final LongFunction<Snapshot> epochs;
  private final SnapshotBuilder builder = new SnapshotBuilder();
  private final EndpointMerge merge = new EndpointMerge();
  private final ServedEndpoints served = new ServedEndpoints();
  private volatile List<String> sourcePrecedence = List.of();
  private Map<EndpointRef, String> lastCauses = Map.of();
  private Asked lastAsked;

  /** @param epochs a published epoch's snapshot (quarantined resources are restored from one) */
  Candidates(Clock clock, Validator validator, Translator translator, ResourceCheck resourceCheck,
      LongFunction<Snapshot> epochs) {
    this.clock = clock;
    this.validator = validator;
    this.translator = translator;
    this.resourceCheck = resourceCheck;
    this.epochs = epochs;
  }

  Result next(Input in) {
    EndpointMerge.Result merged = merge.update(in.sources(), sourcePrecedence);
    // The endpoints as they should be served ({@link ServedEndpoints}), validated before the guards
    // are asked: invalid input is refused with every violation, never held for a confirmation.
    ServedEndpoints.Unguarded wanted = served.lifecycle(merged.endpoints(), in.intent(), in.parent(), in.specs(),
        in.drainsAcknowledged()::contains, clock.instant());
    DesiredState unguarded = in.template().with(wanted.endpoints());
    ValidationResult verdict = validator.validate(unguarded).and(new ValidationResult(merged.conflicts()));
    if (!verdict.isValid()) {
      lastCauses = wanted.causes();
      return new Refused(verdict.errors(), verdict.warnings(), new Effects(Map.of(), Set.of(), wanted.nextChange()));
    }
    ServedEndpoints.Result lifecycle = served.guard(wanted, in.intent(), in.parent(), in.specs(), clock.instant());
    lastCauses = lifecycle.causes();
    DesiredState desired = unguarded;
    if (lifecycle.endpoints() != wanted.endpoints()) {
      // A guard kept what clients hold for some cluster: the mix is validated as it will be served.
      desired = in.template().with(lifecycle.endpoints());
      verdict = validator.validate(desired).and(new ValidationResult(merged.conflicts()));
      if (!verdict.isValid()) {
        return new Refused(verdict.errors(), verdict.warnings(), effects(Map.of(), lifecycle));
      }
    }
    // The operator's drops before the quarantine: an assignment refused for its drops is restored
    // from the last safe epoch like any refused version (shedding never hides a NACK).
    AutomaticDrops automatic = in.automatic().resolve(in.parent());
    List<TranslatedResource> translated = DropOverloads.apply(translator.translate(desired),
        drops(in.intent(), automatic, desired.endpoints().keySet()));
    Quarantine.Applied restored = Quarantine.apply(in.intent().quarantine(), translated, desired, epochs);
    Effects effects = effects(restored.lifted(), lifecycle);
    Provenance provenance = in.provenance();
    if (!automatic.byCluster().isEmpty()) {
      Provenance.Builder p = provenance.toBuilder();
      Set<String> clusters = desired.endpoints().keySet();
      automatic.byCluster().forEach((cluster, e) -> {
        if (clusters.contains(cluster)) {
          p.putAutomaticDrops(cluster, e.cause());
        }
      });
      provenance = p.build();
    }
    SnapshotCandidate candidate = builder.candidate(restored.resources(), desired.endpoints(), in.parent(),
        provenance);
    List<Violation> envoyErrors = resourceCheck.checkChanged(candidate);
    if (!envoyErrors.isEmpty()) {
      return new Refused(envoyErrors, verdict.warnings(), effects);
    }
    return new Built(candidate, verdict.warnings(), effects);
  }

  private static Effects effects(Map<Quarantine.Key, String> lifted, ServedEndpoints.Result lifecycle) {
    return new Effects(lifted, lifecycle.spentConfirmations(), lifecycle.nextChange());
  }

  /**
   * The operator's drops, then the automatic one: clients apply categories in order, each to what
   * the previous let through, so an operator's priority shed takes its share first and the
   * automatic drop tops up what is still too much.
   */
  private static Map<String, List<DropOverloads.Drop>> drops(Intent intent, AutomaticDrops automatic,
      Set<String> clusters) {
    if (intent.drops().isEmpty() && automatic.byCluster().isEmpty()) {
      return Map.of();
    }
    Map<String, List<DropOverloads.Drop>> byCluster = new java.util.HashMap<>();
    intent.drops().forEach(d -> byCluster.computeIfAbsent(d.cluster(), c -> new java.util.ArrayList<>())
        .add(new DropOverloads.Drop(d.category(), d.perMillion())));
    automatic.byCluster().forEach((cluster, e) -> {
      if (clusters.contains(cluster)) {
        byCluster.computeIfAbsent(cluster, c -> new java.util.ArrayList<>())
            .add(new DropOverloads.Drop(AutomaticDrops.CATEGORY, e.perMillion()));
      }
    });
    return byCluster;
  }

  /**
   * Whether {@code template} with {@code sources} builds at all ({@link Pipeline#build}, a first
   * build's verdict): the config guard asks before it holds a reload, so that an invalid reload is
   * refused with its violations and a held one is one that {@code validate} accepts. Remembered for
   * the same template and source generations: a held reload is asked about on every build.
   */
  boolean builds(DesiredStateTemplate template, List<SourceState> sources) {
    List<String> generations = sources.stream().map(s -> s.sourceId() + "@" + s.generation()).sorted().toList();
    Asked last = lastAsked;
    if (last != null && last.template() == template && last.generations().equals(generations)
        && last.precedence().equals(sourcePrecedence)) {
      return last.builds();
    }
    boolean builds = Pipeline.build(template, sources, sourcePrecedence, clock, validator, resourceCheck).valid();
    lastAsked = new Asked(template, generations, sourcePrecedence, builds);
    return builds;
  }

  private record Asked(DesiredStateTemplate template, List<String> generations, List<String> precedence,
      boolean builds) {}

  /** Why each endpoint of the last candidate is served as it is. */
  Map<EndpointRef, String> lastCauses() {
    return lastCauses;
  }

  /** {@code sources.precedence}: which source wins a conflicting endpoint. */
  void sourcePrecedence(List<String> precedence) {
    sourcePrecedence = List.copyOf(precedence);
  }

  List<String> sourcePrecedence() {
    return sourcePrecedence;
  }

  /** Updates the guards hold back (mass removal, last eligible endpoints). */
  ServedEndpoints served() {
    return served;
  }

  /** Serializations done by the snapshot builder: one per new or changed resource, never per client. */
  SnapshotBuilder builder() {
    return builder;
  }
}
