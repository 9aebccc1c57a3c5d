package io.signalbox.bench;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.stub.StreamObserver;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.translate.Translation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The floor: the least an xDS server on grpc-java must do to keep the load tool's fleet current,
 * and nothing else. It is not a control plane (no validation, no store, no ACK tracking, no NACK
 * handling, no flow control beyond gRPC's buffering); it measures what any Java control plane on
 * grpc-java and Netty pays per client per change before it does anything of its own.
 *
 * <p>Its shortcuts are the cheapest correct ones: requests are handled on the event loop
 * ({@code directExecutor}); each resource is packed once per change and one response message per
 * change and type is shared by every stream that subscribes to all of it (gRPC still serializes it
 * per stream) and copied per stream only to stamp that stream's own nonce, a counter; an ACK
 * costs a parse and a comparison. It serves the same resources as Signalbox and the baselines,
 * read the same way ({@link FileFedServer}).
 */
@Command(name = "floor-server", mixinStandardHelpOptions = true,
    description = "Serve the load tool's config with bare grpc-java: the per-stream floor.")
public final class FloorAdsServer implements Callable<Integer> {

  @Option(names = "--config", required = true, description = "A Signalbox config file (xds port, sources.files).")
  Path configFile;

  @Option(names = "--max-lifetime", defaultValue = "PT3H", description = "Exit after this long (ISO-8601).")
  Duration maxLifetime;

  private final Set<SotwStream> sotwStreams = ConcurrentHashMap.newKeySet();
  private final Set<DeltaStream> deltaStreams = ConcurrentHashMap.newKeySet();
  private volatile Resources current;

  /** One change's resources: every type's, by name, packed once, with the change that made each. */
  private record Resources(long counter, Map<XdsType, Map<String, Resource>> byType, Map<XdsType, String> versions) {
    Map<String, Resource> of(XdsType type) {
      return byType.getOrDefault(type, Map.of());
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new FloorAdsServer()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    return FileFedServer.serve("floor ADS server", configFile, maxLifetime, this::onTranslation, () -> current != null,
        new Ads(), true);
  }

  /** Runs on the watcher's thread, one translation at a time. */
  private void onTranslation(Translation translation) {
    Resources before = current;
    long counter = before == null ? 1 : before.counter() + 1;
    Map<XdsType, Map<String, Resource>> byType = new EnumMap<>(XdsType.class);
    Map<XdsType, String> versions = new EnumMap<>(XdsType.class);
    Map<XdsType, Set<String>> changed = new EnumMap<>(XdsType.class);
    Map<XdsType, Set<String>> removed = new EnumMap<>(XdsType.class);
    for (XdsType type : XdsType.ORDERED) {
      Map<String, Resource> old = before == null ? Map.of() : before.of(type);
      Map<String, Resource> now = new LinkedHashMap<>();
      Set<String> changedNames = new HashSet<>();
      for (TranslatedResource r : translation.ofType(type)) {
        Resource was = old.get(r.name());
        if (was != null && was.getResource().getValue().equals(r.message().toByteString())) {
          now.put(r.name(), was);
        } else {
          now.put(r.name(), Resource.newBuilder().setName(r.name()).setVersion(Long.toString(counter))
              .setResource(Any.pack(r.message())).build());
          changedNames.add(r.name());
        }
      }
      Set<String> gone = new HashSet<>(old.keySet());
      gone.removeAll(now.keySet());
      byType.put(type, now);
      boolean typeChanged = !changedNames.isEmpty() || !gone.isEmpty();
      versions.put(type, typeChanged || before == null ? Long.toString(counter) : before.versions().get(type));
      if (typeChanged) {
        changed.put(type, changedNames);
        removed.put(type, gone);
      }
    }
    Resources resources = new Resources(counter, byType, versions);
    current = resources;
    if (before == null) {
      return;
    }
    for (Map.Entry<XdsType, Set<String>> e : changed.entrySet()) {
      XdsType type = e.getKey();
      // Built once without a nonce; each stream stamps its own on a copy that shares the resources.
      DeltaDiscoveryResponse all = deltaResponse(type, resources, e.getValue(), removed.get(type), null, "");
      for (DeltaStream stream : deltaStreams) {
        stream.changed(type, resources, e.getValue(), removed.get(type), all);
      }
      // LDS and CDS responses carry the whole type; RDS and EDS only what changed (the xDS protocol
      // lets a client keep those it is not sent), as Signalbox sends them.
      Set<String> sent = type.fullStateInSotw() ? null : e.getValue();
      DiscoveryResponse response = sotwResponse(type, resources, sent, "");
      for (SotwStream stream : sotwStreams) {
        stream.changed(type, resources, sent, response);
      }
    }
  }

  /** The delta response for {@code names} of {@code type} (all of them with a null {@code wanted}). */
  private static DeltaDiscoveryResponse deltaResponse(XdsType type, Resources resources, Collection<String> names,
      Collection<String> gone, Set<String> wanted, String nonce) {
    DeltaDiscoveryResponse.Builder b = DeltaDiscoveryResponse.newBuilder()
        .setTypeUrl(type.typeUrl()).setSystemVersionInfo(resources.versions().get(type)).setNonce(nonce);
    Map<String, Resource> of = resources.of(type);
    for (String name : names) {
      Resource r = of.get(name);
      if (r != null && (wanted == null || wanted.contains(name))) {
        b.addResources(r);
      }
    }
    for (String name : gone) {
      if (wanted == null || wanted.contains(name)) {
        b.addRemovedResources(name);
      }
    }
    return b.build();
  }

  /** The state-of-the-world response of {@code type} for {@code wanted} names (null: all). */
  private static DiscoveryResponse sotwResponse(XdsType type, Resources resources, Set<String> wanted, String nonce) {
    DiscoveryResponse.Builder b = DiscoveryResponse.newBuilder()
        .setTypeUrl(type.typeUrl()).setVersionInfo(resources.versions().get(type)).setNonce(nonce);
    for (Map.Entry<String, Resource> e : resources.of(type).entrySet()) {
      if (wanted == null || wanted.contains(e.getKey())) {
        b.addResources(e.getValue().getResource());
      }
    }
    return b.build();
  }

  /** Names a stream asks for per type; an empty set is the wildcard. */
  private static boolean wildcard(XdsType type, Set<String> names) {
    return names.isEmpty() || type.fullStateInSotw();
  }

  private final class Ads extends AggregatedDiscoveryServiceGrpc.AggregatedDiscoveryServiceImplBase {
    @Override
    public StreamObserver<DiscoveryRequest> streamAggregatedResources(StreamObserver<DiscoveryResponse> out) {
      SotwStream stream = new SotwStream(out);
      sotwStreams.add(stream);
      return stream;
    }

    @Override
    public StreamObserver<DeltaDiscoveryRequest> deltaAggregatedResources(StreamObserver<DeltaDiscoveryResponse> out) {
      DeltaStream stream = new DeltaStream(out);
      deltaStreams.add(stream);
      return stream;
    }
  }

  /** A state-of-the-world stream: the names it asked for per type; every method holds its lock. */
  private final class SotwStream implements StreamObserver<DiscoveryRequest> {
    private final StreamObserver<DiscoveryResponse> out;
    private final Map<XdsType, Set<String>> names = new EnumMap<>(XdsType.class);
    /** The last nonce this stream was sent: each response's is the next, unique within the stream. */
    private long nonce;

    SotwStream(StreamObserver<DiscoveryResponse> out) {
      this.out = out;
    }

    @Override
    public synchronized void onNext(DiscoveryRequest request) {
      XdsType type = XdsType.fromTypeUrl(request.getTypeUrl());
      Set<String> asked = new HashSet<>(request.getResourceNamesList());
      Set<String> had = names.put(type, asked);
      if (had == null || !had.equals(asked) || request.getResponseNonce().isEmpty()) {
        out.onNext(sotwResponse(type, current, wildcard(type, asked) ? null : asked, Long.toString(++nonce)));
      }
    }

    /**
     * {@code changed}: the names {@code response} carries, null for all of the type (LDS, CDS:
     * always a wildcard, so the stream takes the whole response).
     */
    synchronized void changed(XdsType type, Resources resources, Set<String> changed, DiscoveryResponse response) {
      Set<String> asked = names.get(type);
      if (asked == null) {
        return;
      }
      String n = Long.toString(++nonce);
      if (wildcard(type, asked) || asked.containsAll(changed)) {
        out.onNext(response.toBuilder().setNonce(n).build());
      } else {
        Set<String> wanted = new HashSet<>(asked);
        wanted.retainAll(changed);
        if (!wanted.isEmpty()) {
          out.onNext(sotwResponse(type, resources, wanted, n));
        }
      }
    }

    @Override
    public void onError(Throwable t) {
      sotwStreams.remove(this);
    }

    @Override
    public synchronized void onCompleted() {
      sotwStreams.remove(this);
      out.onCompleted();
    }
  }

  /** A delta stream: the names it subscribed to per type; every method holds its lock. */
  private final class DeltaStream implements StreamObserver<DeltaDiscoveryRequest> {
    private final StreamObserver<DeltaDiscoveryResponse> out;
    private final Map<XdsType, Set<String>> names = new EnumMap<>(XdsType.class);
    /** The last nonce this stream was sent: each response's is the next, unique within the stream. */
    private long nonce;

    DeltaStream(StreamObserver<DeltaDiscoveryResponse> out) {
      this.out = out;
    }

    @Override
    public synchronized void onNext(DeltaDiscoveryRequest request) {
      XdsType type = XdsType.fromTypeUrl(request.getTypeUrl());
      Set<String> subscribed = names.get(type);
      boolean first = subscribed == null;
      if (first) {
        subscribed = new HashSet<>();
        names.put(type, subscribed);
      }
      List<String> added = new ArrayList<>();
      for (String name : request.getResourceNamesSubscribeList()) {
        if (subscribed.add(name)) {
          added.add(name);
        }
      }
      subscribed.removeAll(request.getResourceNamesUnsubscribeList());
      if (!first && added.isEmpty()) {
        return; // an ACK, a NACK or an unsubscription: nothing to send
      }
      Resources resources = current;
      Collection<String> send = subscribed.isEmpty() ? resources.of(type).keySet() : added;
      out.onNext(deltaResponse(type, resources, send, List.of(), null, Long.toString(++nonce)));
    }

    synchronized void changed(XdsType type, Resources resources, Set<String> names, Set<String> gone,
        DeltaDiscoveryResponse all) {
      Set<String> subscribed = this.names.get(type);
      if (subscribed == null) {
        return;
      }
      String n = Long.toString(++nonce);
      if (subscribed.isEmpty() || (subscribed.containsAll(names) && subscribed.containsAll(gone))) {
        out.onNext(all.toBuilder().setNonce(n).build());
      } else {
        DeltaDiscoveryResponse some = deltaResponse(type, resources, names, gone, subscribed, n);
        if (some.getResourcesCount() > 0 || some.getRemovedResourcesCount() > 0) {
          out.onNext(some);
        }
      }
    }

    @Override
    public void onError(Throwable t) {
      deltaStreams.remove(this);
    }

    @Override
    public synchronized void onCompleted() {
      deltaStreams.remove(this);
      out.onCompleted();
    }
  }
}
