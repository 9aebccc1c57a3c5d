package io.signalbox.bench.jmh;

import io.signalbox.bench.Workload;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.reconcile.ResourceCheck;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.translate.Translation;
import io.signalbox.controlplane.translate.XdsTranslator;
import io.signalbox.model.DesiredState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import io.signalbox.validation.ValidationResult;
import io.signalbox.validation.Violation;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The reconciler's work for one epoch at 10,000 clusters × 10 endpoints, stage by stage and whole,
 * in the order {@code Reconciler.build} runs it: validate the desired state, translate (reusing the
 * previous translation), build the candidate (serialize and hash new resources), check new or
 * changed resources against Envoy's rules, seal, and encode the envelope the store persists.
 *
 * <p>"full" is a first epoch (nothing to reuse); "change" is one endpoint's weight changed against
 * a parent snapshot and translation of the previous state. The validator remembers the last state
 * it saw, so the "change" benchmarks alternate between the two states (before → after, then after
 * → before): every call is a one-endpoint change for every stage, never a repeat of the last state.
 * The epoch benchmarks stop at the sealed snapshot; the envelope a store persists is measured on
 * its own ({@link #encodeEnvelope}) and storage I/O not at all (PostgreSQL's write is measured by
 * the load tool with {@code --store embedded}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx4g"})
@Warmup(iterations = 5, time = 3)
@Measurement(iterations = 5, time = 5)
public class EpochBenchmarks {

  @Param({"10000"})
  int clusters;

  @Param({"10"})
  int endpoints;

  private final XdsTranslator translator = new XdsTranslator();
  private final DesiredStateValidator validator = new DesiredStateValidator();
  private final EnvoyResourceValidator envoyRules = new EnvoyResourceValidator();
  /** What the reconciler runs on a candidate: the Envoy rules on its changed resources only. */
  private final ResourceCheck changedCheck = envoyRules::validate;
  private final Provenance provenance = Provenance.newBuilder().setCause("bench").build();

  private DesiredState before;
  private DesiredState after;
  private Translation translationBefore;
  private Snapshot snapshotBefore;
  private Translation translationAfter;
  private Snapshot snapshotAfter;
  private List<TranslatedResource> changedResources;
  /** Flipped by every "change" call: true for before → after, false for after → before. */
  private boolean forward;

  @Setup(Level.Trial)
  public void setUp() {
    Workload workload = new Workload(clusters, endpoints);
    Parsed<SignalboxConfig> config = ConfigLoader.parse(workload.config(18000, 8080, "memory", "100ms"),
        "bench.yaml", Path.of("."));
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) config).value();
    before = cfg.desiredState(workload.endpointSpecs(0));
    after = cfg.desiredState(workload.endpointSpecs(1));

    translationBefore = translator.translate(before);
    SnapshotBuilder builder = new SnapshotBuilder();
    snapshotBefore = builder.candidate(translationBefore.resources(), before.endpoints(), null, provenance)
        .seal(1, Instant.EPOCH);
    translationAfter = translator.translate(after, translationBefore);
    SnapshotCandidate candidate = builder.candidate(translationAfter.resources(), after.endpoints(), snapshotBefore,
        provenance);
    snapshotAfter = candidate.seal(2, Instant.EPOCH);
    changedResources = changed(candidate, translationAfter.resources());
    if (changedResources.size() != 1) {
      throw new IllegalStateException("a one-endpoint change should change one resource, changed "
          + changedResources);
    }
    if (!validator.validate(after).isValid()) {
      throw new IllegalStateException("the benchmark state is invalid: " + validator.validate(after).errors());
    }
    requireValid(validator.validate(before));
  }

  /** Validation of one endpoint changed, against the validator's memory of the previous state. */
  @Benchmark
  public ValidationResult validate() {
    forward = !forward;
    return validator.validate(forward ? after : before);
  }

  /** Validation with nothing to reuse. */
  @Benchmark
  public ValidationResult validateFull() {
    return new DesiredStateValidator().validate(after);
  }

  /** Translate + candidate + seal with nothing to reuse. */
  @Benchmark
  public Snapshot buildFull() {
    return new SnapshotBuilder().candidate(translator.translate(after).resources(), after.endpoints(), null,
        provenance).seal(1, Instant.EPOCH);
  }

  /** Translate + candidate + seal reusing the previous translation and snapshot. */
  @Benchmark
  public Snapshot buildChange() {
    forward = !forward;
    DesiredState next = forward ? after : before;
    Translation t = translator.translate(next, forward ? translationBefore : translationAfter);
    Snapshot parent = forward ? snapshotBefore : snapshotAfter;
    return new SnapshotBuilder().candidate(t.resources(), next.endpoints(), parent, provenance)
        .seal(parent.epoch() + 1, Instant.EPOCH);
  }

  /** Envoy's protoc-gen-validate rules over the one changed resource. */
  @Benchmark
  public List<Violation> envoyCheckChanged() {
    return check(changedResources);
  }

  /** Envoy's rules over every resource, as for a first epoch. */
  @Benchmark
  public List<Violation> envoyCheckAll() {
    return check(snapshotAfterResources());
  }

  /** The envelope a store persists, encoded. */
  @Benchmark
  public byte[] encodeEnvelope() {
    return snapshotAfter.toEnvelope().toByteArray();
  }

  /** The whole first epoch: validate, translate, build, check everything, seal. */
  @Benchmark
  public Snapshot epochFull() {
    requireValid(new DesiredStateValidator().validate(after));
    Translation t = translator.translate(after);
    SnapshotCandidate candidate = new SnapshotBuilder().candidate(t.resources(), after.endpoints(), null, provenance);
    requireNoViolations(check(t.resources()));
    return candidate.seal(1, Instant.EPOCH);
  }

  /** One endpoint changed → the next epoch: validate, translate incrementally, build, check changed, seal. */
  @Benchmark
  public Snapshot epochChange() {
    forward = !forward;
    DesiredState next = forward ? after : before;
    Snapshot parent = forward ? snapshotBefore : snapshotAfter;
    requireValid(validator.validate(next));
    Translation t = translator.translate(next, forward ? translationBefore : translationAfter);
    SnapshotCandidate candidate = new SnapshotBuilder().candidate(t.resources(), next.endpoints(), parent,
        provenance);
    requireNoViolations(changedCheck.checkChanged(candidate));
    if (candidate.sameContentAs(parent)) {
      throw new IllegalStateException("the change changed nothing");
    }
    return candidate.seal(parent.epoch() + 1, Instant.EPOCH);
  }

  private List<TranslatedResource> snapshotAfterResources() {
    return translator.translate(after, translationBefore).resources();
  }

  private List<Violation> check(List<TranslatedResource> resources) {
    List<Violation> out = new ArrayList<>();
    for (TranslatedResource r : resources) {
      out.addAll(envoyRules.validate(r.type() + " '" + r.name() + "'", r.message()));
    }
    return out;
  }

  /** The resources {@code candidate} changed, as found by walking the whole translation (setup only). */
  private static List<TranslatedResource> changed(SnapshotCandidate candidate, List<TranslatedResource> all) {
    return all.stream().filter(r -> candidate.changed(r.type()).contains(r.name())).toList();
  }

  private static void requireValid(ValidationResult result) {
    if (!result.isValid()) {
      throw new IllegalStateException(result.errors().toString());
    }
  }

  private static void requireNoViolations(List<Violation> violations) {
    if (!violations.isEmpty()) {
      throw new IllegalStateException(violations.toString());
    }
  }
}
