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
import picocli.CommandLine.Option;

/**
 * {@code load}: runs the fleet scenario against Signalbox, plain java-control-plane, or both one
 * after the other (never at once: they would share two cores), and prints the comparison.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
    description = "Connect a simulated fleet, apply one-endpoint changes through the endpoint file, measure.")
public final class LoadTool implements Callable<Integer> {

  /** Which control planes to run. */
  enum Targets { SIGNALBOX, PLAIN, BOTH }

  @Option(names = "--clients", defaultValue = "1000") int clients;
  @Option(names = "--clusters", defaultValue = "100") int clusters;
  @Option(names = "--endpoints", defaultValue = "10", description = "Endpoints per cluster.") int endpoints;
  @Option(names = "--changes", defaultValue = "20") int changes;
  @Option(names = "--warmup-changes", defaultValue = "10",
      description = "Changes applied first and not measured (JIT warm-up of the change path)") int warmupChanges;
  @Option(names = "--mode", defaultValue = "sotw", converter = ModeConverter.class,
      description = "sotw or delta") Fleet.Mode mode;
  @Option(names = "--target", defaultValue = "signalbox", converter = TargetsConverter.class,
      description = "signalbox, plain or both") Targets target;
  @Option(names = "--store", defaultValue = "memory", description = "Signalbox store.url: memory or embedded")
  String store;
  @Option(names = "--debounce", defaultValue = "100ms", description = "Signalbox reconcile.debounce")
  String debounce;
  @Option(names = "--file-quiet-period", defaultValue = "100ms",
      description = "sources.fileQuietPeriod (both targets); 0ms is safe here: the tool renames files into place")
  String fileQuietPeriod;
  @Option(names = "--server-jvm-opts", defaultValue = "-Xms1g -Xmx2g",
      description = "JVM options of the server process (both targets)") String serverJvmOpts;
  @Option(names = "--signalbox-jar", defaultValue = "control-plane/target/signalbox.jar") Path signalboxJar;
  @Option(names = "--work-dir", defaultValue = "${sys:java.io.tmpdir}/signalbox-bench",
      description = "Configs, endpoint files and server logs go here") Path workDir;
  @Option(names = "--timeout", defaultValue = "PT60S",
      description = "How long all clients may take to hold one change (ISO-8601); the storm gets 4x") Duration timeout;
  @Option(names = "--hold", defaultValue = "PT0S",
      description = "Keep the Signalbox server and the fleet up this long after measuring (ISO-8601), to look at "
          + "its dashboard under load") Duration hold;

  @Override
  public Integer call() throws Exception {
    if (!Files.isRegularFile(signalboxJar) && target != Targets.PLAIN) {
      System.err.println("no Signalbox jar at " + signalboxJar + " (build it: mvn -B -DskipTests package)");
      return 1;
    }
    Scenario scenario = new Scenario(Scenario.Target.SIGNALBOX, mode, clients, new Workload(clusters, endpoints),
        changes, warmupChanges, store, debounce, fileQuietPeriod, Arrays.asList(serverJvmOpts.trim().split("\\s+")), signalboxJar,
        absoluteClasspath(), workDir, timeout);
    List<RunResult> results = new ArrayList<>();
    if (target != Targets.PLAIN) {
      results.add(LoadRun.run(scenario, hold));
    }
    if (target != Targets.SIGNALBOX) {
      results.add(LoadRun.run(scenario.withTarget(Scenario.Target.PLAIN)));
    }
    System.out.print(ResultTable.render(results));
    boolean clean = results.stream().allMatch(r -> r.unconverged() == 0 && r.notReady() == 0 && r.errors() == 0);
    return clean ? 0 : 1;
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

  static final class TargetsConverter implements picocli.CommandLine.ITypeConverter<Targets> {
    @Override
    public Targets convert(String value) {
      return Targets.valueOf(value.toUpperCase(Locale.ROOT));
    }
  }
}
