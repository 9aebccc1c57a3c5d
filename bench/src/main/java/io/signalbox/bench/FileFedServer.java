package io.signalbox.bench;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.translate.Translation;
import io.signalbox.controlplane.translate.XdsTranslator;
import io.signalbox.model.EndpointSpec;
import io.signalbox.source.file.IncrementalEndpointFile;
import io.signalbox.source.file.WatchedFile;
import io.signalbox.yaml.Parsed;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the servers the load tool measures beside Signalbox (the baselines, the floor) share: the
 * same config and endpoint file as Signalbox, watched with the same {@link WatchedFile} timing,
 * read with the same {@link IncrementalEndpointFile} and translated with the same
 * {@link XdsTranslator}. Each server is told every new translation; the xDS port is bound once the
 * first one has made it ready, since the load tool takes "accepts connections" as ready.
 */
final class FileFedServer {

  private static final Logger log = LoggerFactory.getLogger(FileFedServer.class);

  private FileFedServer() {}

  /**
   * Serves {@code service} until {@code maxLifetime} has passed; 1 if the config is invalid or the
   * first endpoint file did not make the server ready.
   *
   * @param translated called on the watcher's thread, one translation at a time
   * @param onEventLoop handle requests on the transport's threads ({@code directExecutor})
   */
  static int serve(String name, Path configFile, Duration maxLifetime, Consumer<Translation> translated,
      BooleanSupplier ready, BindableService service, boolean onEventLoop) throws Exception {
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(configFile);
    if (!(parsed instanceof Parsed.Ok<SignalboxConfig> ok)) {
      parsed.violations().forEach(System.err::println);
      return 1;
    }
    SignalboxConfig config = ok.value();
    Path endpoints = config.sources().files().get(0);
    IncrementalEndpointFile reader = new IncrementalEndpointFile(endpoints.toString());
    XdsTranslator translator = new XdsTranslator();
    Translation[] previous = {Translation.empty()};
    try (WatchedFile watch = WatchedFile.start(endpoints, config.sources().fileTiming(), event -> {
      if (!(event instanceof WatchedFile.Event.Content content)) {
        return;
      }
      Parsed<Map<String, List<EndpointSpec>>> read = reader.read(content.text());
      if (!(read instanceof Parsed.Ok<Map<String, List<EndpointSpec>>> file)) {
        log.warn("endpoint file rejected: {}", read.violations());
        return;
      }
      previous[0] = translator.translate(config.desiredState(file.value()), previous[0]);
      translated.accept(previous[0]);
    })) {
      if (!ready.getAsBoolean()) {
        System.err.println("no valid endpoint file at " + endpoints);
        return 1;
      }
      NettyServerBuilder builder = NettyServerBuilder
          .forAddress(new InetSocketAddress(config.xds().address(), config.xds().port()))
          .addService(service)
          .maxInboundMessageSize(16 * 1024 * 1024);
      if (onEventLoop) {
        builder.directExecutor();
      }
      Server server = builder.build().start();
      log.info("{} serving on {}:{}", name, config.xds().address(), server.getPort());
      server.awaitTermination(maxLifetime.toMillis(), TimeUnit.MILLISECONDS);
      server.shutdownNow();
    }
    return 0;
  }
}
