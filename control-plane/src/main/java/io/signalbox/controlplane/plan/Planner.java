package io.signalbox.controlplane.plan;

import io.signalbox.controlplane.cli.ConfigCheck;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.reconcile.AutomaticDrops;
import io.signalbox.controlplane.reconcile.DesiredStateTemplate;
import io.signalbox.controlplane.reconcile.Pipeline;
import io.signalbox.controlplane.reconcile.Rehearsal;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.telemetry.FleetLoad;
import io.signalbox.controlplane.xds.ClientWarnings;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.source.SourceState;
import io.signalbox.source.file.WatchedFile;
import io.signalbox.validation.Violation;
import io.signalbox.yaml.Parsed;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Makes a {@link Plan} of some inputs against the running server, changing nothing: the inputs
 * checked by the one pipeline ({@link ConfigCheck} for a config and its endpoint files, {@link
 * Pipeline#check} for endpoint files under the config in force), then the writer's own build and
 * guards rehearsed on them ({@link Rehearsal}), then the fleet, the load reports and the support
 * table asked about the result.
 */
public final class Planner {

  /** The rule of an endpoint file the server does not read (with {@code --endpoints} alone). */
  static final String UNKNOWN_FILE = "plan.unknown-file";

  /**
   * A plan with what the API needs beside it for the field-level diff.
   *
   * @param planned the epoch the inputs would make (numbered as the next one); null when invalid
   * @param served the epoch the plan was made against; null before the first
   */
  public record Result(Plan plan, Snapshot planned, Snapshot served) {}

  private final Supplier<Rehearsal> rehearsals;
  private final XdsServer xds;
  private final FleetLoad load;
  private final Clock clock;

  public Planner(Supplier<Rehearsal> rehearsals, XdsServer xds, FleetLoad load, Clock clock) {
    this.rehearsals = rehearsals;
    this.xds = xds;
    this.load = load;
    this.clock = clock;
  }

  /** The inputs as the pipeline sees them: a template and every source, or why they are invalid. */
  private record Checked(DesiredStateTemplate template, List<SourceState> sources, List<Violation> errors,
      List<Violation> warnings) {}

  public Result plan(PlanInputs inputs) {
    Rehearsal rehearsal = rehearsals.get();
    Rehearsal.Moment now = rehearsal.now();
    Snapshot served = now.served();
    long servedEpoch = served == null ? 0 : served.epoch();
    Checked checked = inputs.config() != null ? withConfig(inputs, now) : withEndpoints(inputs, now);
    Plan.Verdict verdict = Plan.Verdict.of(checked.errors(), checked.warnings());
    if (!verdict.valid()) {
      return new Result(Plan.invalid(servedEpoch, verdict), null, served);
    }
    Rehearsal.Outcome outcome = rehearsal.of(checked.template(), checked.sources());
    if (outcome instanceof Rehearsal.Refused refused) {
      // Valid as inputs, refused with the operator intent applied (an override the new config breaks).
      return new Result(Plan.invalid(servedEpoch, Plan.Verdict.of(refused.errors(), checked.warnings())), null,
          served);
    }
    Rehearsal.Built built = (Rehearsal.Built) outcome;
    Instant at = clock.instant();
    Snapshot planned = built.candidate().seal(servedEpoch + 1, at);
    DesiredStateTemplate inForce = now.inForce() != null ? now.inForce() : checked.template();
    Map<String, List<io.signalbox.model.EndpointSpec>> was = served == null ? Map.of() : served.endpoints();
    Plan plan = new Plan(Plan.Outcome.of(true, !built.candidate().sameContentAs(served)), servedEpoch, verdict,
        GuardsAhead.of(built.holds(), now.intent().freeze(), planned.endpoints(), checked.template()::cluster),
        Audience.recipients(Audience.changes(built.candidate(), served), xds::holders),
        Audience.clientKinds(ClientWarnings.served(planned), served == null ? ClientWarnings.served(planned)
            : ClientWarnings.served(served), ClientWarnings.count(xds.clients(), xds.clientKinds())),
        CapacityEffects.of(was, planned.endpoints(), checked.template()::cluster, inForce::cluster,
            cluster -> load.demand(cluster, at), cluster -> AutomaticDrops.perMillion(served, cluster)));
    return new Result(plan, planned, served);
  }

  /** A config and the endpoint files it names, from the request; the server's other sources as they are. */
  private Checked withConfig(PlanInputs inputs, Rehearsal.Moment now) {
    Path file = Path.of(inputs.configFile());
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(inputs.config().getBytes(StandardCharsets.UTF_8), file);
    if (!(parsed instanceof Parsed.Ok<SignalboxConfig> ok)) {
      return new Checked(null, List.of(), parsed.violations(), List.of());
    }
    SignalboxConfig config = ok.value();
    List<SourceState> others = now.sources().stream().filter(s -> !s.sourceId().startsWith("file:")).toList();
    ConfigCheck.Result result = ConfigCheck.of(config, others, path -> read(inputs, path.toString()));
    return new Checked(DesiredStateTemplate.of(config.desiredStates(), config::clusterFor), result.sources(),
        result.errors(), result.warnings());
  }

  /**
   * Endpoint files in place of the server's own of the same path (or, when the paths differ, of the
   * same file name, the one the server reads by it), under the config the server has now.
   */
  private Checked withEndpoints(PlanInputs inputs, Rehearsal.Moment now) {
    List<Violation> unknown = new ArrayList<>();
    List<SourceState> sources = new ArrayList<>(now.sources());
    inputs.endpointFiles().keySet().stream().sorted().forEach(path -> {
      List<SourceState> files = now.sources().stream().filter(s -> s.sourceId().startsWith("file:")).toList();
      SourceState target = files.stream().filter(s -> s.sourceId().equals("file:" + path)).findFirst()
          .orElseGet(() -> sameName(files, path));
      if (target == null) {
        unknown.add(Violation.error(UNKNOWN_FILE, path, "", "the server reads no endpoint file of this path or name; "
            + "it reads " + (files.isEmpty() ? "none" : String.join(", ", files.stream().map(SourceState::sourceId)
            .map(id -> id.substring("file:".length())).sorted().toList()))));
        return;
      }
      Path served = Path.of(target.sourceId().substring("file:".length()));
      sources.set(sources.indexOf(target), ConfigCheck.endpointFile(served, p -> read(inputs, path)));
    });
    if (now.config() == null) {
      unknown.add(Violation.error(UNKNOWN_FILE, "", "", "the server has no config yet to plan endpoint files under"));
    }
    if (!unknown.isEmpty()) {
      return new Checked(null, List.of(), unknown, List.of());
    }
    Pipeline.Verdict verdict = Pipeline.check(now.config(), sources, now.precedence(), clock);
    return new Checked(now.config(), sources, verdict.errors(), verdict.warnings());
  }

  /** The one file source whose file has {@code path}'s name; null for none or several. */
  private static SourceState sameName(List<SourceState> files, String path) {
    Path name = Path.of(path).getFileName();
    List<SourceState> named = files.stream()
        .filter(s -> Path.of(s.sourceId().substring("file:".length())).getFileName().equals(name)).toList();
    return named.size() == 1 ? named.get(0) : null;
  }

  private static WatchedFile.Event read(PlanInputs inputs, String path) {
    String text = inputs.endpointFiles().get(path);
    return text == null ? new WatchedFile.Event.Missing() : new WatchedFile.Event.Content(
        text.getBytes(StandardCharsets.UTF_8));
  }
}
