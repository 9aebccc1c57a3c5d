package io.signalbox.bench;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.translate.Translation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The baselines: java-control-plane with its defaults ({@link SimpleCache} and {@link
 * V3DiscoveryServer}), serving the same resources as Signalbox would, read and watched the same way
 * ({@link FileFedServer}). It has no debounce, no validation and no store: everything it does per
 * change is the library's.
 *
 * <p>Two ways of versioning ({@link Versions}): the plain one gives the whole snapshot one version,
 * so every change re-sends every type to every client; the careful one gives each type a content
 * hash of its resources, so a change re-sends only the types it changed (an endpoint edit: EDS).
 */
@Command(name = "plain-server", mixinStandardHelpOptions = true,
    description = "Serve the load tool's config with java-control-plane (the baselines).")
public final class PlainJavaControlPlane implements Callable<Integer> {

  private static final Logger log = LoggerFactory.getLogger(PlainJavaControlPlane.class);
  private static final String GROUP = "all";

  @Option(names = "--config", required = true, description = "A Signalbox config file (xds port, sources.files).")
  Path configFile;

  @Option(names = "--max-lifetime", defaultValue = "PT3H", description = "Exit after this long (ISO-8601).")
  Duration maxLifetime;

  @Option(names = "--versions", defaultValue = "snapshot", converter = VersionsConverter.class,
      description = "snapshot (one version for the snapshot: plain) or per-type-hash (careful)")
  Versions versions;

  /** How the snapshot's types are versioned. */
  enum Versions {
    /** One counter for the whole snapshot: java-control-plane's {@code Snapshot.create(..., version)}. */
    SNAPSHOT,
    /** Each type's version is a SHA-256 of its resources' deterministic serialization. */
    PER_TYPE_HASH
  }

  static final class VersionsConverter implements CommandLine.ITypeConverter<Versions> {
    @Override
    public Versions convert(String value) {
      return Versions.valueOf(value.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
    }
  }

  private final SimpleCache<String> cache = new SimpleCache<>(node -> GROUP);
  private long version;

  public static void main(String[] args) {
    System.exit(new CommandLine(new PlainJavaControlPlane()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    return FileFedServer.serve("plain java-control-plane", configFile, maxLifetime, this::onTranslation,
        () -> cache.getSnapshot(GROUP) != null, new V3DiscoveryServer(cache).getAggregatedDiscoveryServiceImpl(),
        false);
  }

  /** Runs on the watcher's thread, one translation at a time. */
  private void onTranslation(Translation translation) {
    long started = System.nanoTime();
    cache.setSnapshot(GROUP, snapshot(translation, versions, ++version));
    log.info("snapshot {} set in {} ms", version, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  /** The java-control-plane snapshot of {@code translation}, the {@code counter}-th one set. */
  static Snapshot snapshot(Translation translation, Versions versions, long counter) {
    List<Cluster> clusters = messages(translation, XdsType.CLUSTER, Cluster.class);
    List<ClusterLoadAssignment> endpoints = messages(translation, XdsType.ENDPOINT, ClusterLoadAssignment.class);
    List<Listener> listeners = messages(translation, XdsType.LISTENER, Listener.class);
    List<RouteConfiguration> routes = messages(translation, XdsType.ROUTE, RouteConfiguration.class);
    if (versions == Versions.SNAPSHOT) {
      return Snapshot.create(clusters, endpoints, listeners, routes, List.of(), Long.toString(counter));
    }
    return Snapshot.create(clusters, contentHash(clusters), endpoints, contentHash(endpoints), listeners,
        contentHash(listeners), routes, contentHash(routes), List.of(), contentHash(List.of()));
  }

  private static <T> List<T> messages(Translation translation, XdsType type, Class<T> messageType) {
    return translation.ofType(type).stream().map(TranslatedResource::message).map(messageType::cast).toList();
  }

  /**
   * SHA-256 over the resources' deterministic serializations, in their order (the translator's, by
   * name): equal resources give equal versions on every run, as a careful user would version a type.
   */
  static String contentHash(List<? extends Message> resources) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
    ByteBuffer length = ByteBuffer.allocate(Integer.BYTES);
    for (Message resource : resources) {
      byte[] bytes = new byte[resource.getSerializedSize()];
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      out.useDeterministicSerialization();
      try {
        resource.writeTo(out);
      } catch (IOException e) {
        throw new IllegalStateException("serializing into an array does no I/O", e);
      }
      sha.update(length.clear().putInt(bytes.length).flip());
      sha.update(bytes);
    }
    return HexFormat.of().formatHex(sha.digest(), 0, 16);
  }
}
