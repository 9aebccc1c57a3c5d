package io.signalbox.bench;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.translate.Translation;
import io.signalbox.controlplane.translate.XdsTranslator;
import io.signalbox.model.EndpointSpec;
import io.signalbox.source.file.EndpointFile;
import io.signalbox.source.file.WatchedFile;
import io.signalbox.source.yaml.Parsed;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The baseline: plain java-control-plane with its defaults ({@link SimpleCache} and {@link
 * V3DiscoveryServer}, one version string for the whole snapshot), serving the same resources as
 * Signalbox would (the same config, endpoint file, {@link EndpointFile} and {@link XdsTranslator})
 * and watching the endpoint file the same way ({@link WatchedFile} with its default timing). It
 * has no debounce, no validation and no store: everything it does per change is the library's.
 */
@Command(name = "plain-server", mixinStandardHelpOptions = true,
    description = "Serve the load tool's config with plain java-control-plane (the baseline).")
public final class PlainJavaControlPlane implements Callable<Integer> {

  private static final Logger log = LoggerFactory.getLogger(PlainJavaControlPlane.class);
  private static final String GROUP = "all";

  @Option(names = "--config", required = true, description = "A Signalbox config file (xds port, sources.files).")
  Path configFile;

  @Option(names = "--max-lifetime", defaultValue = "PT3H", description = "Exit after this long (ISO-8601).")
  Duration maxLifetime;

  private final XdsTranslator translator = new XdsTranslator();
  private final SimpleCache<String> cache = new SimpleCache<>(node -> GROUP);
  private Translation previous = Translation.empty();
  private long version;

  public static void main(String[] args) {
    System.exit(new CommandLine(new PlainJavaControlPlane()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(configFile);
    if (!(parsed instanceof Parsed.Ok<SignalboxConfig> ok)) {
      parsed.violations().forEach(v -> System.err.println(v));
      return 1;
    }
    SignalboxConfig config = ok.value();
    Path endpoints = config.sources().files().get(0);
    try (WatchedFile watch = WatchedFile.start(endpoints, config.sources().fileTiming(),
        event -> onFile(config, endpoints, event))) {
      if (cache.getSnapshot(GROUP) == null) {
        System.err.println("no valid endpoint file at " + endpoints);
        return 1;
      }
      // Bound only after the first snapshot is set: the load tool takes "accepts connections" as ready.
      Server server = NettyServerBuilder.forAddress(new InetSocketAddress(config.xds().address(), config.xds().port()))
          .addService(new V3DiscoveryServer(cache).getAggregatedDiscoveryServiceImpl())
          .maxInboundMessageSize(16 * 1024 * 1024)
          .build()
          .start();
      log.info("plain java-control-plane serving on {}:{}", config.xds().address(), server.getPort());
      server.awaitTermination(maxLifetime.toMillis(), TimeUnit.MILLISECONDS);
      server.shutdownNow();
    }
    return 0;
  }

  /** Runs on the watcher's thread, one event at a time. */
  private void onFile(SignalboxConfig config, Path file, WatchedFile.Event event) {
    if (!(event instanceof WatchedFile.Event.Content content)) {
      return;
    }
    long started = System.nanoTime();
    Parsed<Map<String, List<EndpointSpec>>> parsed =
        EndpointFile.parse(new String(content.bytes(), StandardCharsets.UTF_8), file.toString());
    if (!(parsed instanceof Parsed.Ok<Map<String, List<EndpointSpec>>> ok)) {
      log.warn("endpoint file rejected: {}", parsed.violations());
      return;
    }
    previous = translator.translate(config.desiredState(ok.value()), previous);
    Snapshot snapshot = Snapshot.create(
        messages(previous, XdsType.CLUSTER, Cluster.class),
        messages(previous, XdsType.ENDPOINT, ClusterLoadAssignment.class),
        messages(previous, XdsType.LISTENER, Listener.class),
        messages(previous, XdsType.ROUTE, RouteConfiguration.class),
        List.of(),
        Long.toString(++version));
    cache.setSnapshot(GROUP, snapshot);
    log.info("snapshot {} set in {} ms", version, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  private static <T> List<T> messages(Translation translation, XdsType type, Class<T> messageType) {
    return translation.ofType(type).stream().map(TranslatedResource::message).map(messageType::cast).toList();
  }
}
