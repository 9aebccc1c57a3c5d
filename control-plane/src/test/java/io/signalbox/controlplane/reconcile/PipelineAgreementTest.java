package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.cli.ConfigCheck;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.source.FakeClock;
import io.signalbox.source.Restarts;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.source.file.FileEndpointSource;
import io.signalbox.source.file.WatchedFile;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import io.signalbox.validation.Violation;
import io.signalbox.yaml.Parsed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.junit.jupiter.api.Test;

/**
 * One pipeline, one truth (issue 41): {@code signalbox validate} ({@link ConfigCheck}, also the
 * start of {@code serve}), a start (the writer's first build from the sources as the running file
 * source reads them) and a live reload (a long-lived writer that has built an epoch from the same
 * sources, then takes the new config) give the same verdict, the same violations and, when valid,
 * the same resources, on generated inputs: a config (listeners, routes, declared clusters, {@code
 * sources.precedence}), one or two endpoint files and a registry source, each valid or not (a
 * listener without a name, a route to no cluster, a value out of range, an address twice in a file
 * or in two files, alike or not).
 *
 * <p>Each case is drawn from a seed ({@link Case#of}). {@code mvn verify} runs 200 seeds from jqwik's
 * fixed seed and {@value #SWEEP_DEFAULT} in order; a larger sweep is one command:
 * {@code mvn -B -o -pl control-plane -am -Dsurefire.failIfNoSpecifiedTests=false
 * -Dtest=PipelineAgreementTest -Dpipeline.sweep=20000 verify -DskipITs}. A failure names its seed.
 */
class PipelineAgreementTest {

  static final int SWEEP_DEFAULT = 20;
  private static final Instant NOW = Instant.parse("2026-12-07T03:00:00Z");
  private static final String[] ADDRESSES = {"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5"};
  private static final String[] CLUSTERS = {"greeter", "billing"};

  private static Path root;
  // The live writer: one for every case, as one server lives through many reloads.
  private static final FakeClock clock = new FakeClock(NOW);
  private static final Candidates writer = new Candidates(clock, new DesiredStateValidator(),
      new IncrementalTranslator(), new EnvoyResourceValidator()::validate, epoch -> null);
  private static long epochs;

  @BeforeContainer
  static void directory() throws IOException {
    root = Files.createTempDirectory("pipeline-agreement");
  }

  @AfterContainer
  static void clean() throws IOException {
    if (root == null) {
      return;
    }
    try (var files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** What an entry point said: its errors, its warnings and, when valid, its content hash. */
  record Said(List<String> errors, List<String> warnings, String content) {
    static Said of(List<Violation> errors, List<Violation> warnings, SnapshotCandidate candidate) {
      return new Said(text(errors), text(warnings), candidate == null ? null : candidate.contentHash());
    }

    private static List<String> text(List<Violation> violations) {
      return violations.stream().map(Violation::toString).toList();
    }
  }

  @Property(tries = 200, seed = "41")
  void validateStartAndALiveReloadAgree(@ForAll long seed) {
    Said said = agree(seed);
    // What the cases covered, in jqwik's report: valid ones, and each rule that refused one.
    Statistics.collect(said.errors().isEmpty() ? (said.warnings().isEmpty() ? "valid" : "valid with warnings")
        : said.errors().get(0).replaceAll(".*\\[(.*)]$", "$1"));
  }

  @Test
  void aSweepOfSeedsInOrderAgreesToo() throws IOException {
    directory();
    try {
      for (long seed = 0; seed < Long.getLong("pipeline.sweep", SWEEP_DEFAULT); seed++) {
        agree(seed);
      }
    } finally {
      clean();
    }
  }

  private Said agree(long seed) {
    Case c = Case.of(seed);
    Path dir = c.write(root.resolve("case-" + Long.toHexString(seed)));
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(dir.resolve("signalbox.yaml"));
    assertThat(parsed).as("seed %d: the generator writes configs that parse\n%s", seed, c.config())
        .isInstanceOf(Parsed.Ok.class);
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) parsed).value();

    ConfigCheck.Result checked = ConfigCheck.of(config, c.others());
    Said validate = Said.of(checked.errors(), checked.warnings(), checked.candidate());
    List<SourceState> sources = sourcesAsServed(config, c.others());
    Said start = start(config, sources);
    Said live = reload(config, sources);

    String inputs = "seed " + seed + "\n" + c;
    assertThat(start).as("a start and validate, %s", inputs).isEqualTo(validate);
    assertThat(live).as("a live reload and validate, %s", inputs).isEqualTo(validate);
    return validate;
  }

  /** Each endpoint file as the running file source publishes it first, then the other sources. */
  private static List<SourceState> sourcesAsServed(SignalboxConfig config, List<SourceState> others) {
    List<SourceState> states = new ArrayList<>();
    for (Path file : config.sources().files()) {
      FileEndpointSource source = new FileEndpointSource(file, WatchedFile.Timing.DEFAULT,
          config.sources().fileMaxBytes(), Restarts.DEFAULT);
      List<SourceState> published = new ArrayList<>();
      source.start(published::add);
      source.close();
      states.add(published.get(0));
    }
    states.addAll(others);
    return states;
  }

  /** What the status API reports as the sources' problems (by source id), or null when none has any. */
  private static List<Violation> problems(List<SourceState> sources) {
    Map<String, List<Violation>> byId = new TreeMap<>();
    sources.forEach(s -> {
      if (!s.problems().isEmpty()) {
        byId.put(s.sourceId(), s.problems());
      }
    });
    return byId.isEmpty() ? null : byId.values().stream().flatMap(List::stream).toList();
  }

  private static DesiredStateTemplate template(SignalboxConfig config) {
    // As SignalboxServer offers a config to the writer.
    return DesiredStateTemplate.of(config.desiredStates(), config::clusterFor);
  }

  /** The writer's first build, as after a start with nothing stored. */
  private static Said start(SignalboxConfig config, List<SourceState> sources) {
    Candidates first = new Candidates(clock, new DesiredStateValidator(), new IncrementalTranslator(),
        new EnvoyResourceValidator()::validate, epoch -> null);
    first.sourcePrecedence(config.sources().precedence());
    return withProblems(problems(sources), first.next(input(template(config), sources, null)));
  }

  /**
   * The live writer built an epoch from the same sources under a config that declares nothing (so
   * no endpoint leaves and no guard holds), then the config is reloaded through the config guard.
   */
  private static Said reload(SignalboxConfig config, List<SourceState> sources) {
    writer.sourcePrecedence(config.sources().precedence());
    SignalboxConfig bare = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse("store: { url: memory }\n",
        "bare.yaml", Path.of("/"))).value();
    DesiredStateTemplate before = template(bare);
    Candidates.Result base = writer.next(input(before, sources, null));
    Snapshot parent = base instanceof Candidates.Built b ? b.candidate().seal(++epochs, clock.instant()) : null;
    ConfigHolds holds = new ConfigHolds();
    holds.admit(before, Map.of(), clock.instant(), t -> true);
    holds.built(before);
    DesiredStateTemplate offered = template(config);
    DesiredStateTemplate admitted = holds.admit(offered, Map.of(), clock.instant(), t -> writer.builds(t, sources));
    assertThat(admitted).as("nothing declared before: nothing to hold").isSameAs(offered);
    Candidates.Result reloaded = writer.next(input(admitted, sources, parent));
    return withProblems(problems(sources), reloaded);
  }

  /**
   * What the server reports: the sources' problems (null: none), then the build's own errors; its
   * warnings only when no source has problems (else they describe the faulty source's absence).
   */
  private static Said withProblems(List<Violation> problems, Candidates.Result result) {
    if (problems == null) {
      return said(result);
    }
    List<Violation> errors = new java.util.ArrayList<>(problems);
    if (result instanceof Candidates.Refused r) {
      errors.addAll(r.errors());
    }
    return Said.of(errors, List.of(), null);
  }

  private static Candidates.Input input(DesiredStateTemplate template, List<SourceState> sources, Snapshot parent) {
    return new Candidates.Input(template, new ClusterSpecs(template), sources, Intent.NONE, parent, Set.of(),
        Provenance.newBuilder().setCause("test").build());
  }

  private static Said said(Candidates.Result result) {
    if (result instanceof Candidates.Refused r) {
      return Said.of(r.errors(), r.warnings(), null);
    }
    Candidates.Built b = (Candidates.Built) result;
    return Said.of(List.of(), b.warnings(), b.candidate());
  }

  /**
   * One generated input: the config's text, the endpoint files' texts and the registry's state.
   *
   * @param files file name -> text
   */
  record Case(String config, Map<String, String> files, List<SourceState> others) {

    static Case of(long seed) {
      Random r = new Random(seed);
      int fileCount = 1 + r.nextInt(2);
      Map<String, String> files = new TreeMap<>();
      List<String[]> shared = new ArrayList<>();
      for (int f = 0; f < fileCount; f++) {
        files.put("e" + f + ".yaml", endpointFile(r, shared));
      }
      StringBuilder yaml = new StringBuilder("store: { url: memory }\nsources:\n  files: [ ");
      yaml.append(String.join(", ", files.keySet().stream().map(n -> "./" + n).toList())).append(" ]\n");
      switch (r.nextInt(3)) {
        case 0 -> yaml.append("  precedence: [ registry, file ]\n");
        case 1 -> yaml.append("  precedence: [ file, registry ]\n");
        default -> { }
      }
      int listeners = r.nextInt(3);
      if (listeners > 0) {
        yaml.append("listeners:\n");
        for (int i = 0; i < listeners; i++) {
          String name = r.nextInt(8) == 0 ? "\"\"" : "l" + i;
          yaml.append("  - { name: ").append(name).append(", apiListener: true, routeConfig: r").append(i)
              .append(" }\n");
        }
        yaml.append("routeConfigs:\n");
        for (int i = 0; i < listeners; i++) {
          String cluster = r.nextInt(8) == 0 ? "nowhere" : CLUSTERS[r.nextInt(CLUSTERS.length)];
          yaml.append("  - name: r").append(i).append("\n    virtualHosts:\n      - name: v").append(i)
              .append("\n        domains: [ \"*\" ]\n        routes:\n          - match: { prefix: \"\" }\n")
              .append("            cluster: ").append(cluster).append("\n");
        }
      }
      List<String> declared = new ArrayList<>();
      for (String cluster : CLUSTERS) {
        if (r.nextBoolean()) {
          String policy = new String[] {"ROUND_ROBIN", "LEAST_REQUEST", "RING_HASH"}[r.nextInt(3)];
          int ejection = r.nextInt(10) == 0 ? 150 : 10;
          declared.add("  - { name: " + cluster + ", lbPolicy: " + policy + ", connectTimeout: 1s, "
              + "maxEjectionPercent: " + ejection + " }\n");
        }
      }
      if (!declared.isEmpty()) {
        yaml.append("clusters:\n");
        declared.forEach(yaml::append);
      }
      return new Case(yaml.toString(), files, registry(r, shared));
    }

    /**
     * A file of a few endpoints in one or both clusters; now and then a value out of range, an
     * address:port twice, or one another file (or the registry) also lists, alike or not.
     */
    private static String endpointFile(Random r, List<String[]> shared) {
      StringBuilder text = new StringBuilder("clusters:\n");
      for (String cluster : CLUSTERS) {
        if (r.nextInt(3) == 0) {
          continue;
        }
        text.append("  ").append(cluster).append(":\n");
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
          String[] e;
          if (!shared.isEmpty() && r.nextInt(5) == 0) {
            String[] earlier = shared.get(r.nextInt(shared.size()));
            e = earlier.clone();
            if (r.nextBoolean()) {
              e[4] = String.valueOf(1 + r.nextInt(3)); // the same endpoint, another weight
            }
          } else {
            int port = r.nextInt(40) == 0 ? 70000 : 8080 + r.nextInt(4);
            int weight = r.nextInt(40) == 0 ? 0 : 1 + r.nextInt(2);
            e = new String[] {cluster, ADDRESSES[r.nextInt(ADDRESSES.length)], String.valueOf(port),
                r.nextBoolean() ? "a" : "b", String.valueOf(weight), r.nextInt(6) == 0 ? "DRAINING" : "READY"};
            shared.add(e);
          }
          if (!e[0].equals(cluster)) {
            continue;
          }
          text.append("    - { address: ").append(e[1]).append(", port: ").append(e[2]).append(", zone: ")
              .append(e[3]).append(", weight: ").append(e[4]).append(", state: ").append(e[5]).append(" }\n");
        }
      }
      return text.toString();
    }

    /** Half the time a registry source, with an endpoint of its own or one a file lists too. */
    private static List<SourceState> registry(Random r, List<String[]> shared) {
      if (r.nextBoolean()) {
        return List.of();
      }
      Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
      int n = 1 + r.nextInt(2);
      for (int i = 0; i < n; i++) {
        String cluster;
        String address;
        int port;
        String zone;
        if (!shared.isEmpty() && r.nextBoolean()) {
          String[] e = shared.get(r.nextInt(shared.size()));
          cluster = e[0];
          address = e[1];
          port = Math.min(Integer.parseInt(e[2]), 65535);
          zone = r.nextBoolean() ? e[3] : "c";
        } else {
          cluster = CLUSTERS[r.nextInt(CLUSTERS.length)];
          address = "10.0.1." + (1 + r.nextInt(3));
          port = 9090;
          zone = "c";
        }
        List<EndpointSpec> list = endpoints.computeIfAbsent(cluster, k -> new ArrayList<>());
        if (list.stream().noneMatch(x -> x.address().equals(address) && x.port() == port)) {
          list.add(new EndpointSpec(address, port, zone, 1, 0, EndpointState.READY,
              "registry:" + cluster + "/" + address + ":" + port));
        }
      }
      return List.of(new SourceState("registry", 1, SourceHealth.FRESH, endpoints, List.of()));
    }

    Path write(Path dir) {
      try {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("signalbox.yaml"), config);
        for (var f : files.entrySet()) {
          Files.writeString(dir.resolve(f.getKey()), f.getValue());
        }
        return dir;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder("signalbox.yaml:\n").append(config);
      files.forEach((name, text) -> s.append(name).append(":\n").append(text));
      others.forEach(o -> s.append(o.sourceId()).append(": ").append(o.endpoints()).append("\n"));
      return s.toString();
    }
  }
}
