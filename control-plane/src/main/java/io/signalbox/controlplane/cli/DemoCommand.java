package io.signalbox.controlplane.cli;

import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.demo.DemoBackends;
import io.signalbox.controlplane.demo.DemoFiles;
import io.signalbox.controlplane.demo.DemoFleet;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code signalbox demo}: a server with a live sample fleet beside it, in one process: gRPC
 * backends on loopback, grpc-xds clients in two node groups sending steady traffic through it, and
 * a proxy that ACKs late. Everything it starts stops with it.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Run a server with sample backends and xDS clients sending traffic through it.")
public final class DemoCommand implements Callable<Integer> {

  static final String DEFAULT_SERVER = "http://127.0.0.1:8080";

  @Spec CommandSpec spec;

  @Option(names = "--admin-port", defaultValue = "8080",
      description = "Admin API and dashboard port (0: any free one). Default: ${DEFAULT-VALUE}.")
  int adminPort;

  @Option(names = "--xds-port", defaultValue = "18000",
      description = "xDS port, on loopback (0: any free one). Default: ${DEFAULT-VALUE}.")
  int xdsPort;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Where to write the demo's config and endpoint file. Default: a new temporary directory, "
          + "removed when the demo stops.")
  Path dir;

  @Option(names = "--backends", defaultValue = "4", description = "How many backends (1-20). Default: ${DEFAULT-VALUE}.")
  int backendCount;

  @Option(names = "--backend-port", paramLabel = "PORT", defaultValue = "50051",
      description = "The first backend's port; b2 is on the next one, and so on (one that is taken: any free one; "
          + "0: all on any free ones). Default: ${DEFAULT-VALUE}.")
  int backendPort;

  @Option(names = "--request-every", paramLabel = "DURATION", converter = Arguments.DurationValue.class,
      defaultValue = "100ms", description = "How often each client sends a request. Default: ${DEFAULT-VALUE}.")
  Duration requestEvery;

  @Option(names = "--ack-delay", paramLabel = "DURATION", converter = Arguments.DurationValue.class,
      defaultValue = "5s", description = "How late the slow client ACKs. Default: ${DEFAULT-VALUE}.")
  Duration ackDelay;

  @Option(names = "--churn-every", paramLabel = "DURATION", converter = Arguments.DurationValue.class,
      defaultValue = "30s", description = "How often the demo changes a weight, making a new epoch (0: never). "
      + "It stops once you edit the endpoint file. Default: ${DEFAULT-VALUE}.")
  Duration churnEvery;

  @Option(names = "--report-every", paramLabel = "DURATION", converter = Arguments.DurationValue.class,
      defaultValue = "5s", description = "How often to print each backend's requests. Default: ${DEFAULT-VALUE}.")
  Duration reportEvery;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    if (backendCount < 1 || backendCount > 20) {
      throw new ParameterException(spec.commandLine(), "--backends must be 1 to 20, was " + backendCount);
    }
    if (backendPort < 0 || backendPort + backendCount - 1 > 65535) {
      throw new ParameterException(spec.commandLine(), "--backend-port must leave room for " + backendCount
          + " ports up to 65535, was " + backendPort);
    }
    if (requestEvery.isZero() || reportEvery.isZero()) {
      throw new ParameterException(spec.commandLine(), "--request-every and --report-every must be longer than 0");
    }
    boolean temporary = dir == null;
    Path work = temporary ? Files.createTempDirectory("signalbox-demo-") : Files.createDirectories(dir);
    List<AutoCloseable> started = new ArrayList<>();
    CountDownLatch stopped = new CountDownLatch(1);
    // Registered before anything starts: a Ctrl-C during start-up still stops what did start.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stopAll(started, temporary ? work : null);
      stopped.countDown();
    }, "demo-shutdown"));

    DemoBackends backends = DemoBackends.start(backendCount, backendPort, line -> {
      out.println(line);
      out.flush();
    });
    register(started, backends);
    DemoFiles files = new DemoFiles(work.toAbsolutePath());
    files.writeEndpoints(backends.all(), 1);
    Path config = files.writeConfig(xdsPort, adminPort);
    SignalboxServer server = register(started, startServer(config));
    DemoFleet fleet = register(started, DemoFleet.start(server.xdsPort(), files, backends,
        new DemoFleet.Settings(requestEvery, ackDelay, churnEvery, reportEvery), out));
    out.print(banner(server, files, backends));
    out.flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  private static SignalboxServer startServer(Path config) {
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(config);
    if (parsed instanceof Parsed.Invalid<SignalboxConfig> invalid) {
      throw bug(config, invalid.violations());
    }
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) parsed).value();
    List<Violation> problems = ServeCommand.validateAtStartup(cfg);
    if (!problems.isEmpty()) {
      throw bug(config, problems);
    }
    return SignalboxServer.start(config, cfg,
        cfg.store(), Clock.systemUTC());
  }

  /** The demo writes its own config: one it then refuses is a bug in the demo, not the user's mistake. */
  private static IllegalStateException bug(Path config, List<Violation> violations) {
    return new IllegalStateException("the demo wrote an invalid " + config + ": " + violations);
  }

  /** What to look at and what to try, with this run's real addresses. */
  static String banner(SignalboxServer server, DemoFiles files, DemoBackends backends) {
    String url = "http://127.0.0.1:" + server.adminPort();
    // --server is an option of each command; one variable serves every command of the session.
    String export = url.equals(DEFAULT_SERVER) ? "" : "  export SIGNALBOX_SERVER=" + url + "\n";
    DemoBackends.Backend second = backends.all().get(Math.min(1, backends.all().size() - 1));
    String endpoint = second.address();
    return """

        Signalbox demo: %d backends, %d grpc-xds clients (node groups web, batch) sending traffic, and %s (group %s) ACKing late.
          Dashboard:       %s/
          xDS:             127.0.0.1:%d (dial xds:///%s)
          Config:          %s
          Endpoint file:   %s (edit it: each save is a new epoch)
          Traffic:         a "demo: requests answered" line every few seconds, per backend
        Try next, in another terminal (control-plane/target/signalbox is the launcher):
        %s  signalbox clients
          signalbox drain %s %s --wait      # %s gets no new requests; exits 0 once safe to remove
          signalbox undrain %s %s
          signalbox why %s %s
        Ctrl-C stops the demo and everything it started.

        """.formatted(backends.all().size(), DemoFleet.NODES.size(), DemoFleet.SLOW_NODE, DemoFleet.SLOW_GROUP,
        url, server.xdsPort(), DemoFiles.LISTENER, files.config(), files.endpoints(),
        export, DemoFiles.CLUSTER, endpoint, second.name(), DemoFiles.CLUSTER, endpoint, DemoFiles.CLUSTER, endpoint);
  }

  private static <T extends AutoCloseable> T register(List<AutoCloseable> started, T part) {
    synchronized (started) {
      started.add(part);
    }
    return part;
  }

  /** Newest first: the clients before the server they talk to, the server before its backends. */
  private static void stopAll(List<AutoCloseable> started, Path temporaryDir) {
    List<AutoCloseable> parts;
    synchronized (started) {
      parts = new ArrayList<>(started);
    }
    for (int i = parts.size() - 1; i >= 0; i--) {
      try {
        parts.get(i).close();
      } catch (Exception e) {
        System.err.println("signalbox demo: stopping " + parts.get(i).getClass().getSimpleName() + " failed: " + e);
      }
    }
    if (temporaryDir != null) {
      try (Stream<Path> files = Files.walk(temporaryDir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException | UncheckedIOException e) {
        // A temporary directory left behind is harmless.
      }
    }
  }
}
