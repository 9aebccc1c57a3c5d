package io.signalbox.source.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.signalbox.model.EndpointSpec;
import io.signalbox.source.kubernetes.KubernetesSourceSettings.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The fabric8 side of the {@link KubernetesEndpointSource}: one client, and an informer for
 * Services and one for EndpointSlices in each configured namespace. It answers what the API server
 * and the caches say (the endpoints they hold, whether a watch is down, whether a list emptied a
 * kind); the source decides what that means for its health and what it publishes.
 */
final class Informers implements AutoCloseable {

  private static final String ALL = KubernetesSourceSettings.ALL_NAMESPACES;

  private final KubernetesSourceSettings settings;
  private final KubernetesClient client;
  private final List<SharedIndexInformer<Service>> serviceInformers = new ArrayList<>();
  private final List<SharedIndexInformer<EndpointSlice>> sliceInformers = new ArrayList<>();

  /** Per kind: the informers' caches were last emptied by a list, not by watched deletions. */
  private final AtomicBoolean servicesEmptiedByList = new AtomicBoolean();
  private final AtomicBoolean slicesEmptiedByList = new AtomicBoolean();

  /** @throws IllegalStateException when the client cannot be configured (unreadable kubeconfig) */
  Informers(KubernetesSourceSettings settings) {
    this.settings = settings;
    this.client = new KubernetesClientBuilder().withConfig(config(settings)).build();
  }

  /**
   * Starts every informer.
   *
   * @param onChange called on any event (on an informer's thread)
   * @param onTrouble called when a list or watch fails; the informer retries on its own
   * @return completes once every informer has synced
   */
  CompletableFuture<Void> start(Runnable onChange, Runnable onTrouble) {
    List<CompletableFuture<Void>> syncs = new ArrayList<>();
    for (String namespace : settings.namespaces()) {
      SharedIndexInformer<Service> services =
          informer(servicesIn(namespace), servicesEmptiedByList, onChange, onTrouble);
      SharedIndexInformer<EndpointSlice> slices =
          informer(slicesIn(namespace), slicesEmptiedByList, onChange, onTrouble);
      serviceInformers.add(services);
      sliceInformers.add(slices);
      syncs.add(services.start().toCompletableFuture());
      syncs.add(slices.start().toCompletableFuture());
    }
    return CompletableFuture.allOf(syncs.toArray(CompletableFuture[]::new));
  }

  String masterUrl() {
    return String.valueOf(client.getMasterUrl());
  }

  @Override
  public void close() {
    serviceInformers.forEach(SharedIndexInformer::stop);
    sliceInformers.forEach(SharedIndexInformer::stop);
    client.close();
  }

  private static Config config(KubernetesSourceSettings settings) {
    Config base;
    Connection connection = settings.connection();
    if (connection instanceof Connection.Kubeconfig kubeconfig) {
      try {
        base = Config.fromKubeconfig(kubeconfig.context(), kubeconfig.file().toFile());
      } catch (KubernetesClientException e) {
        throw new IllegalStateException("cannot use kubeconfig " + kubeconfig.file() + ": " + e.getMessage(), e);
      }
    } else if (connection instanceof Connection.MasterUrl master) {
      base = new ConfigBuilder(Config.empty()).withMasterUrl(master.url()).build();
    } else {
      base = Config.autoConfigure(null);
    }
    return new ConfigBuilder(base)
        // The informers retry lists and watches themselves, and the probe runs again on its next
        // tick: the client's own request retries (up to ~100 s by default) would only hide an outage.
        .withRequestRetryBackoffLimit(0)
        .withWatchReconnectInterval((int) settings.timing().reconnectInterval().toMillis())
        .build();
  }

  private Informable<Service> servicesIn(String namespace) {
    var all = ALL.equals(namespace) ? client.services().inAnyNamespace() : client.services().inNamespace(namespace);
    return settings.labelSelector() == null ? all : all.withLabelSelector(settings.labelSelector());
  }

  private Informable<EndpointSlice> slicesIn(String namespace) {
    var slices = client.discovery().v1().endpointSlices();
    var all = ALL.equals(namespace) ? slices.inAnyNamespace() : slices.inNamespace(namespace);
    return all.withLabel(SliceMapping.SERVICE_NAME_LABEL);
  }

  private static <T extends HasMetadata> SharedIndexInformer<T> informer(
      Informable<T> what, AtomicBoolean emptiedByList, Runnable onChange, Runnable onTrouble) {
    SharedIndexInformer<T> informer = what.runnableInformer(0);
    informer.addEventHandler(new ResourceEventHandler<T>() {
      @Override
      public void onAdd(T obj) {
        emptiedByList.set(false);
        onChange.run();
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        onChange.run();
      }

      /**
       * {@code deletedFinalStateUnknown} is how fabric8 reports an object that a list no longer
       * had (nobody saw it deleted); a watched deletion is reported without it.
       */
      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        emptiedByList.set(deletedFinalStateUnknown && informer.getStore().listKeys().isEmpty());
        onChange.run();
      }
    });
    // Always retry: giving up would freeze the cache for good, while an outage usually ends. A
    // failed list or watch is also a reason to look at reachability now rather than at the next tick.
    informer.exceptionHandler((isStarted, t) -> {
      onTrouble.run();
      return true;
    });
    return informer;
  }

  /**
   * Lists one EndpointSlice: whether the API server answers now (the watches may look fine while
   * fabric8 quietly reconnects them).
   *
   * @throws KubernetesClientException when it does not
   */
  void listOneSlice() {
    var slices = client.discovery().v1().endpointSlices();
    String first = settings.namespaces().get(0);
    var scoped = ALL.equals(first) ? slices.inAnyNamespace() : slices.inNamespace(first);
    scoped.list(new ListOptionsBuilder().withLimit(1L).build());
  }

  /** Why the caches may be behind (an informer stopped or not watching); null when all watch. */
  String watchProblem() {
    List<SharedIndexInformer<?>> all = new ArrayList<>(serviceInformers);
    all.addAll(sliceInformers);
    for (SharedIndexInformer<?> informer : all) {
      if (!informer.isRunning() || !informer.isWatching()) {
        return "the watch on " + informer.getApiTypeClass().getSimpleName()
            + "s is down; keeping the last known endpoints";
      }
    }
    return null;
  }

  /**
   * What a list emptied ("no Services", "no EndpointSlices" or both), when every informer of that
   * kind is empty and a list, not watched deletions, emptied it; null if none.
   */
  String emptiedByList() {
    boolean noServices = servicesEmptiedByList.get() && serviceInformers.stream().allMatch(Informers::empty);
    boolean noSlices = slicesEmptiedByList.get() && sliceInformers.stream().allMatch(Informers::empty);
    if (!noServices && !noSlices) {
      return null;
    }
    return noServices && noSlices ? "no Services and no EndpointSlices"
        : noServices ? "no Services" : "no EndpointSlices";
  }

  private static boolean empty(SharedIndexInformer<?> informer) {
    return informer.getStore().listKeys().isEmpty();
  }

  /** The clusters the caches hold now, by {@link SliceMapping}. */
  Map<String, List<EndpointSpec>> endpoints() {
    List<Service> services = new ArrayList<>();
    serviceInformers.forEach(i -> services.addAll(i.getStore().list()));
    return SliceMapping.clusters(services, slices(), settings.clusterNames());
  }

  /** Every cached EndpointSlice, in every watched namespace. */
  List<EndpointSlice> slices() {
    List<EndpointSlice> slices = new ArrayList<>();
    sliceInformers.forEach(i -> slices.addAll(i.getStore().list()));
    return slices;
  }
}
