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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The inputs as the next epoch's candidate, or the reasons they cannot be one: sources merged,
 * endpoints given their lifecycle under the operator intent, the desired state validated,
 * translated to Envoy resources, the operator's drops added, quarantined resources restored, and the changed resources checked
 * against Envoy's own rules. Nothing is stored or published here; the writer thread alone calls it.
 */
final class Candidates {

  /** What the inputs give. */
  sealed interface Result permits Refused, Built {}

  /** The inputs break a rule: no epoch, the last one keeps serving. */
  record Refused(List<Violation> errors) implements Result {}

  /** A candidate (possibly with the parent's content), and the validator's warnings about it. */
  record Built(SnapshotCandidate candidate, List<Violation> warnings) implements Result {}

  private final Clock clock;
  private final Validator validator;
  private final Translator translator;
  private final ResourceCheck resourceCheck;
  private final Interventions interventions;
  private final Publication publication;
  private final Consumer<Instant> wakeAt;
  private final SnapshotBuilder builder = new SnapshotBuilder();
  private final EndpointMerge merge = new EndpointMerge();
  private final ServedEndpoints served = new ServedEndpoints();
  private volatile List<String> sourcePrecedence = List.of();
  private Map<EndpointRef, String> lastCauses = Map.of();

  /**
   * @param wakeAt told when the served endpoints change by themselves (a drain deadline, a backoff
   *     ending), so a build runs then without new input; null for never
   */
  Candidates(Clock clock, Validator validator, Translator translator, ResourceCheck resourceCheck,
      Interventions interventions, Publication publication, Consumer<Instant> wakeAt) {
    this.clock = clock;
    this.validator = validator;
    this.translator = translator;
    this.resourceCheck = resourceCheck;
    this.interventions = interventions;
    this.publication = publication;
    this.wakeAt = wakeAt;
  }

  Result next(DesiredStateTemplate template, ClusterSpecs specs, Collection<SourceState> sources, Intent intent,
      Snapshot parent, Provenance provenance) {
    EndpointMerge.Result merged = merge.update(sources, sourcePrecedence);
    DesiredState desired = template.with(lifecycle(merged.endpoints(), intent, specs));
    ValidationResult verdict = validator.validate(desired).and(new ValidationResult(merged.conflicts()));
    if (!verdict.isValid()) {
      return new Refused(verdict.errors());
    }
    // The operator's drops before the quarantine: an assignment refused for its drops is restored
    // from the last safe epoch like any refused version (shedding never hides a NACK).
    List<TranslatedResource> translated = DropOverloads.apply(translator.translate(desired), drops(intent));
    Quarantine.Applied restored = Quarantine.apply(intent.quarantine(), translated, desired, publication::snapshot);
    interventions.lift(restored.lifted());
    SnapshotCandidate candidate = builder.candidate(restored.resources(), desired.endpoints(), parent, provenance);
    List<Violation> envoyErrors = resourceCheck.checkChanged(candidate);
    if (!envoyErrors.isEmpty()) {
      return new Refused(envoyErrors);
    }
    return new Built(candidate, verdict.warnings());
  }

  /** The endpoints as they should be served ({@link ServedEndpoints}). */
  private Map<String, List<EndpointSpec>> lifecycle(Map<String, List<EndpointSpec>> fromSources, Intent intent,
      ClusterSpecs specs) {
    ServedEndpoints.Result result = served.apply(fromSources, intent, publication.current(), specs,
        publication::drainAcknowledged, clock.instant());
    lastCauses = result.causes();
    interventions.forgetConfirmations(result.spentConfirmations());
    wakeAt.accept(result.nextChange());
    return result.endpoints();
  }

  private static Map<String, List<DropOverloads.Drop>> drops(Intent intent) {
    if (intent.drops().isEmpty()) {
      return Map.of();
    }
    Map<String, List<DropOverloads.Drop>> byCluster = new java.util.HashMap<>();
    intent.drops().forEach(d -> byCluster.computeIfAbsent(d.cluster(), c -> new java.util.ArrayList<>())
        .add(new DropOverloads.Drop(d.category(), d.perMillion())));
    return byCluster;
  }

  /** Why each endpoint of the last candidate is served as it is. */
  Map<EndpointRef, String> lastCauses() {
    return lastCauses;
  }

  /** {@code sources.precedence}: which source wins a conflicting endpoint. */
  void sourcePrecedence(List<String> precedence) {
    sourcePrecedence = List.copyOf(precedence);
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
