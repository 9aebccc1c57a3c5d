package io.signalbox.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code load}: runs the fleet scenario against Signalbox and the java-control-plane baselines, one
 * after the other (never at once: they would share two cores), and prints the comparison. With
 * {@code --rounds}, the whole sequence of targets runs again, so that a busy machine's slow spells
 * fall on every target alike and each round's ratios compare runs minutes apart at most; after the
 * last round it prints the ratios the targets are stated in, round by round, with their median.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
    description = "Connect a simulated fleet, apply one-endpoint changes through the endpoint file, measure.")
public final class LoadTool implements Callable<Integer> {

  /** Where refusals are printed: picocli's error writer, so a test can read them. */
  @Spec CommandSpec spec;

  @Option(names = "--clients", defaultValue = "1000") int clients;
  @Option(names = "--clusters", defaultValue = "100") int clusters;
  @Option(names = "--endpoints", defaultValue = "10", description = "Endpoints per cluster.") int endpoints;
  @Option(names = "--zones", defaultValue = "1",
      description = "Zones the endpoints are spread over (a, b, ...): the localities clients report load for")
  int zones;
  @Option(names = "--zone-preference", description = "Every cluster has zonePreference: SAME_ZONE and client i runs in "
      + "zone i mod --zones: each zone's clients get their zone's view of every assignment (Signalbox targets)")
  boolean zonePreference;
  @Option(names = "--load-reports", defaultValue = "off",
      description = "off; on: every cluster has loadReporting: true and every client sends load reports as grpc-java "
          + "does (Signalbox targets only); both: each target runs without them, then with them, and the steady "
          + "windows are compared (needs --steady)")
  String loadReports;
  @Option(names = "--load-reporting-interval", defaultValue = "10s",
      description = "xds.loadReportingInterval with --load-reports") String loadReportingInterval;
  @Option(names = "--steady", defaultValue = "PT0S",
      description = "After the changes, watch the connected fleet this long with nothing changing (ISO-8601): "
          + "server CPU over the window, then its heap after a GC") Duration steady;
  @Option(names = "--steady-warmup", defaultValue = "PT0S",
      description = "Before the steady window, let the fleet run this long unmeasured (ISO-8601), e.g. PT60S so "
          + "that the load-report path is compiled before its cost is measured") Duration steadyWarmup;
  @Option(names = "--changes", defaultValue = "20", description = "Changes measured as the warm phase") int changes;
  @Option(names = "--warmup-changes", defaultValue = "10",
      description = "Changes applied before the warm phase (after the cold one) and not measured") int warmupChanges;
  @Option(names = "--cold-changes", defaultValue = "0",
      description = "Changes measured as the cold phase, right after the connect storm (JIT and class loading included)")
  int coldChanges;
  @Option(names = "--cold-after", defaultValue = "0",
      description = "Changes applied before the cold phase and not measured") int coldAfter;
  @Option(names = "--mode", defaultValue = "sotw", converter = ModeConverter.class,
      description = "sotw or delta") Fleet.Mode mode;
  @Option(names = "--target", defaultValue = "signalbox", split = ",",
      description = "Comma-separated, run in this order, ratios of the first to each other: signalbox, signalbox-cds, "
          + "careful, plain, floor (bare grpc-java: the per-stream floor); both = signalbox,plain; all = signalbox,careful,plain") List<String> targets;
  @Option(names = "--rounds", defaultValue = "1",
      description = "Run the targets' sequence this many times, then print each ratio round by round and its median")
  int rounds;
  @Option(names = "--store", defaultValue = "memory", description = "Signalbox store.url: memory or embedded")
  String store;
  @Option(names = "--debounce", defaultValue = "100ms", description = "Signalbox reconcile.debounce")
  String debounce;
  @Option(names = "--file-quiet-period", defaultValue = "100ms",
      description = "sources.fileQuietPeriod (both targets); 0ms is safe here: the tool renames files into place")
  String fileQuietPeriod;
  // A fixed heap, as the image runs it: with -XX:+AlwaysPreTouch every expansion is touched inside a pause.
  @Option(names = "--server-jvm-opts", defaultValue = "-Xms2g -Xmx2g",
      description = "JVM options of the server process (every target)") String serverJvmOpts;
  @Mixin SignalboxJvmOptions signalboxJvm = new SignalboxJvmOptions();
  @Option(names = "--baseline-jvm-opts", defaultValue = BASELINE_JVM_OPTIONS,
      description = "Added for the targets that are not Signalbox (careful, plain, floor); default: the JVM's G1 and "
          + "${DEFAULT-VALUE}, what measured best for them")
  String baselineJvmOpts;

  /**
   * The careful baseline at its best: the JVM's G1 (the parallel collector cost it more), and the
   * heap touched at start in huge pages, as Signalbox ships (docs/benchmarks-history.md, "Results: issue 17,
   * fifth part").
   */
  static final String BASELINE_JVM_OPTIONS = "-XX:+UseTransparentHugePages -XX:+AlwaysPreTouch";
  @Option(names = "--signalbox-jar", defaultValue = "control-plane/target/signalbox.jar") Path signalboxJar;
  @Option(names = "--cds-archive", defaultValue = "control-plane/target/signalbox.jsa",
      description = "The class-data-sharing archive the signalbox-cds target starts with") Path cdsArchive;
  @Option(names = "--work-dir", defaultValue = "${sys:java.io.tmpdir}/signalbox-bench",
      description = "Configs, endpoint files and server logs go here") Path workDir;
  @Option(names = "--timeout", defaultValue = "PT60S",
      description = "How long all clients may take to hold one change (ISO-8601); the storm gets 4x") Duration timeout;
  @Option(names = "--hold", defaultValue = "PT0S",
      description = "Keep each Signalbox server and its fleet up this long after measuring (ISO-8601), to look at "
          + "its dashboard under load") Duration hold;

  @Override
  public Integer call() throws Exception {
    java.io.PrintWriter err = spec.commandLine().getErr();
    if (rounds < 1) {
      err.println("--rounds must be at least 1, was " + rounds);
      return 2;
    }
    if (steadyWarmup.isNegative()) {
      err.println("the steady window's warm-up cannot be negative, was " + steadyWarmup);
      return 2;
    }
    List<Scenario.Target> order;
    ChangePlan plan;
    Workload workload;
    List<String> reporting;
    try {
      order = targets(targets);
      plan = new ChangePlan(coldAfter, coldChanges, warmupChanges, changes);
      workload = new Workload(clusters, endpoints, zones, zonePreference);
      reporting = loadReportSequence(loadReports, steady);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      return 2;
    }
    if (!Files.isRegularFile(signalboxJar) && order.stream().anyMatch(Scenario.Target::signalbox)) {
      err.println("no Signalbox jar at " + signalboxJar + " (build it: mvn -B -DskipTests package)");
      return 1;
    }
    if (!Files.isRegularFile(cdsArchive) && order.contains(Scenario.Target.SIGNALBOX_CDS)) {
      err.println("no class-data-sharing archive at " + cdsArchive
          + " (build it: mvn -B -DskipTests package -Pcds; see docs/benchmarks.md, \"Class data sharing\")");
      return 1;
    }
    Scenario scenario = new Scenario(order.get(0), mode, clients, workload, plan, store,
        debounce, fileQuietPeriod, options(serverJvmOpts), signalboxJvm.list(), options(baselineJvmOpts),
        signalboxJar, cdsArchive, absoluteClasspath(), workDir, timeout, null, steady, steadyWarmup);
    boolean clean = true;
    List<List<RunResult>> all = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      for (String reports : reporting) {
        Scenario variant = scenario.withLoadReports("on".equals(reports) ? loadReportingInterval : null);
        List<RunResult> results = new ArrayList<>();
        for (Scenario.Target target : order) {
          results.add(LoadRun.run(variant.withTarget(target), target.signalbox() ? hold : Duration.ZERO));
        }
        String title = String.format(Locale.ROOT, "%d %s clients, %d clusters x %d endpoints, round %d of %d%s",
            clients, mode.name().toLowerCase(Locale.ROOT), clusters, endpoints, round, rounds,
            reporting.size() > 1 || variant.loadReports() ? ", load reports " + reports : "");
        System.out.print(ResultTable.render(title, plan, results));
        System.out.flush();
        clean &= results.stream().allMatch(r -> r.unconverged() == 0 && r.notReady() == 0 && r.errors() == 0
            && r.reportErrors() == 0);
        all.add(results);
      }
      if (reporting.size() > 1) {
        List<RunResult> without = all.get(all.size() - 2);
        List<RunResult> with = all.get(all.size() - 1);
        for (int t = 0; t < order.size(); t++) {
          if (order.get(t).signalbox()) {
            System.out.print(LoadReportCost.render(String.format(Locale.ROOT,
                "load reports' cost, %s, %d clients x %d clusters x %d zones every %s, round %d of %d",
                order.get(t).label(), clients, clusters, zones, loadReportingInterval, round, rounds),
                without.get(t), with.get(t)));
          }
        }
        System.out.flush();
      }
    }
    if (reporting.size() == 1) {
      System.out.print(ResultTable.summary(all));
    }
    return clean ? 0 : 1;
  }

  /** {@code --load-reports}'s runs per round, in order: off, on, or off then on. */
  static List<String> loadReportSequence(String value, Duration steady) {
    return switch (value) {
      case "off" -> List.of("off");
      case "on" -> List.of("on");
      case "both" -> {
        if (steady.isZero() || steady.isNegative()) {
          throw new IllegalArgumentException("--load-reports both compares the steady windows: give --steady, e.g. PT60S");
        }
        yield List.of("off", "on");
      }
      default -> throw new IllegalArgumentException("--load-reports must be off, on or both, was '" + value + "'");
    };
  }

  /** A JVM options string as arguments; blank is none. */
  static List<String> options(String line) {
    return line.isBlank() ? List.of() : Arrays.asList(line.trim().split("\\s+"));
  }

  /** {@code --target}'s values in order, aliases expanded. */
  static List<Scenario.Target> targets(List<String> names) {
    List<Scenario.Target> out = new ArrayList<>();
    for (String name : names) {
      switch (name.trim().toLowerCase(Locale.ROOT)) {
        case "both" -> out.addAll(List.of(Scenario.Target.SIGNALBOX, Scenario.Target.PLAIN));
        case "all" -> out.addAll(List.of(Scenario.Target.SIGNALBOX, Scenario.Target.CAREFUL, Scenario.Target.PLAIN));
        default -> out.add(Arrays.stream(Scenario.Target.values()).filter(t -> t.label().equals(name.trim()))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("unknown target '" + name
                + "' (expected signalbox, signalbox-cds, careful, plain, floor, both or all)")));
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no target");
    }
    return List.copyOf(out);
  }

  /** The server runs in another directory: relative class path entries would not resolve there. */
  public static String absoluteClasspath() {
    return Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .map(entry -> Path.of(entry).toAbsolutePath().toString())
        .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
  }

  static final class ModeConverter implements picocli.CommandLine.ITypeConverter<Fleet.Mode> {
    @Override
    public Fleet.Mode convert(String value) {
      return Fleet.Mode.valueOf(value.toUpperCase(Locale.ROOT));
    }
  }
}
