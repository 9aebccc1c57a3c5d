package io.signalbox.source.kubernetes;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.validation.AdmissionRules;
import io.signalbox.validation.Violation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the Services and EndpointSlices an informer holds into clusters. Pure: the same objects
 * always give the same clusters, which is what lets the source rebuild its whole state from the
 * informers' caches after any event, relist or reconnect instead of applying deltas.
 */
final class SliceMapping {

  /** The label the EndpointSlice controller (and anyone mirroring it) puts on a slice. */
  static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

  /**
   * Requests per second each endpoint of the slice can serve. Per slice, not per endpoint: an
   * EndpointSlice's endpoints carry no annotations, and the pods behind one slice are one
   * Deployment's replicas, alike in what they can serve. A value {@link AdmissionRules} refuses
   * gives the slice's endpoints no capacity (their cluster's applies) and a violation of the source.
   */
  public static final String CAPACITY_ANNOTATION = "signalbox.io/capacity-rps";

  /** The rule id of a refused annotation. */
  public static final String RULE_ANNOTATION = "source.annotation";

  private static final Comparator<EndpointSlice> BY_NAMESPACE_AND_NAME =
      Comparator.comparing((EndpointSlice s) -> s.getMetadata().getNamespace())
          .thenComparing(s -> s.getMetadata().getName());

  private static final Comparator<EndpointSpec> BY_ADDRESS_AND_PORT =
      Comparator.comparing(EndpointSpec::address).thenComparingInt(EndpointSpec::port);

  private SliceMapping() {}

  /**
   * Clusters of the given Services, built from the slices that name them. Slices of a Service not
   * in {@code services} (deleted, or not selected by the label selector) are ignored, so a deleted
   * Service loses its clusters at once, before Kubernetes garbage-collects its slices.
   */
  static Map<String, List<EndpointSpec>> clusters(
      Collection<Service> services, Collection<EndpointSlice> slices, ClusterNameTemplate names) {
    Map<String, Service> byKey = new HashMap<>();
    for (Service service : services) {
      byKey.put(service.getMetadata().getNamespace() + "/" + service.getMetadata().getName(), service);
    }
    // Slices in a fixed order, so that which of two equally eligible duplicates wins never depends
    // on the order an informer happened to list them in.
    List<EndpointSlice> ordered = slices.stream().sorted(BY_NAMESPACE_AND_NAME).toList();
    Map<String, Map<String, EndpointSpec>> clusters = new TreeMap<>();
    for (EndpointSlice slice : ordered) {
      String namespace = slice.getMetadata().getNamespace();
      String serviceName = labels(slice).get(SERVICE_NAME_LABEL);
      Service service = serviceName == null ? null : byKey.get(namespace + "/" + serviceName);
      if (service == null || slice.getPorts() == null || slice.getEndpoints() == null) {
        continue;
      }
      String origin = "kubernetes:" + namespace + "/" + slice.getMetadata().getName() + "@"
          + slice.getMetadata().getResourceVersion();
      Integer capacityRps = capacityRps(slice) instanceof AdmissionRules.Declared d ? d.rps() : null;
      for (EndpointPort port : slice.getPorts()) {
        String portLabel = portLabel(port, service);
        if (portLabel == null) {
          continue;
        }
        Map<String, EndpointSpec> cluster =
            clusters.computeIfAbsent(names.render(namespace, serviceName, portLabel), k -> new LinkedHashMap<>());
        for (Endpoint endpoint : slice.getEndpoints()) {
          if (endpoint.getAddresses() == null || endpoint.getAddresses().isEmpty()) {
            continue;
          }
          // The addresses of one endpoint are fungible (the API says consumers may use the first).
          EndpointSpec spec = new EndpointSpec(endpoint.getAddresses().get(0), port.getPort(), endpoint.getZone(),
              EndpointSpec.DEFAULT_WEIGHT, 0, stateOf(endpoint.getConditions()), origin, capacityRps, "",
              targetRef(endpoint, namespace), endpoint.getHostname(), List.of(), zoneHints(endpoint));
          cluster.merge(spec.key(), spec, (held, offered) -> rank(offered.state()) > rank(held.state()) ? offered : held);
        }
      }
    }
    Map<String, List<EndpointSpec>> out = new TreeMap<>();
    clusters.forEach((name, endpoints) -> out.put(name,
        DualStack.merge(endpoints.values().stream().sorted(BY_ADDRESS_AND_PORT).toList(), e -> rank(e.state()))));
    return out;
  }

  /**
   * {@code Pod/namespace/name} of the object behind an endpoint, or empty: the ring key that a pod
   * keeps when it comes back with a new IP (a StatefulSet's pod keeps its name).
   */
  static String targetRef(Endpoint endpoint, String sliceNamespace) {
    var ref = endpoint.getTargetRef();
    if (ref == null || ref.getName() == null || ref.getName().isEmpty()) {
      return "";
    }
    String namespace = ref.getNamespace() == null || ref.getNamespace().isEmpty() ? sliceNamespace : ref.getNamespace();
    return (ref.getKind() == null ? "" : ref.getKind()) + "/" + namespace + "/" + ref.getName();
  }

  /**
   * The zones the EndpointSlice controller hinted the endpoint for ({@code hints.forZones},
   * topology-aware routing), in name order; empty when it set none.
   */
  static List<String> zoneHints(Endpoint endpoint) {
    if (endpoint.getHints() == null || endpoint.getHints().getForZones() == null) {
      return List.of();
    }
    return endpoint.getHints().getForZones().stream()
        .map(z -> z == null ? null : z.getName())
        .filter(z -> z != null && !z.isEmpty())
        .distinct()
        .sorted()
        .toList();
  }

  /** One violation per slice whose capacity annotation is refused, in the slices' fixed order. */
  static List<Violation> annotationProblems(Collection<EndpointSlice> slices) {
    List<Violation> out = new ArrayList<>();
    slices.stream().sorted(BY_NAMESPACE_AND_NAME).forEach(slice -> {
      if (capacityRps(slice) instanceof AdmissionRules.Refused refused) {
        out.add(Violation.error(RULE_ANNOTATION, KubernetesEndpointSource.ID,
            "EndpointSlice " + slice.getMetadata().getNamespace() + "/" + slice.getMetadata().getName() + ": "
                + CAPACITY_ANNOTATION,
            refused.problem() + "; its endpoints take their cluster's capacity"));
      }
    });
    return out;
  }

  /** Null when the slice has no capacity annotation. */
  private static AdmissionRules.Rps capacityRps(EndpointSlice slice) {
    Map<String, String> annotations = slice.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(CAPACITY_ANNOTATION);
    return value == null ? null : AdmissionRules.parseRps(value);
  }

  /**
   * The endpoint's lifecycle state from its conditions (discovery.k8s.io/v1). {@code ready} is never
   * true while terminating, so terminating is looked at first; unset {@code ready} means unknown,
   * which the API says consumers should treat as ready.
   */
  static EndpointState stateOf(EndpointConditions conditions) {
    Boolean ready = conditions == null ? null : conditions.getReady();
    Boolean terminating = conditions == null ? null : conditions.getTerminating();
    if (Boolean.TRUE.equals(terminating)) {
      // Serving or not, it must get no new work; a not-serving one is gone once Kubernetes drops it.
      return EndpointState.DRAINING;
    }
    return ready == null || ready ? EndpointState.READY : EndpointState.WARMING;
  }

  /** Which of two copies of one address:port (in two slices of a Service) is kept: the most eligible. */
  private static int rank(EndpointState state) {
    return switch (state) {
      case READY -> 4;
      case DEGRADED -> 3;
      case DRAINING -> 2;
      case WARMING -> 1;
      case EJECTED -> 0;
    };
  }

  /**
   * The cluster name's port part: the port's name, or the Service port's number when it has none
   * (a single-port Service). Null to skip the port: non-TCP, no number, or no such Service port.
   */
  private static String portLabel(EndpointPort port, Service service) {
    if (port.getPort() == null || !isTcp(port.getProtocol())) {
      return null;
    }
    String name = port.getName() == null ? "" : port.getName();
    if (!name.isEmpty()) {
      return name;
    }
    List<ServicePort> servicePorts = service.getSpec() == null ? null : service.getSpec().getPorts();
    if (servicePorts == null) {
      return null;
    }
    return servicePorts.stream()
        .filter(p -> (p.getName() == null || p.getName().isEmpty()) && isTcp(p.getProtocol()) && p.getPort() != null)
        .map(p -> String.valueOf(p.getPort()))
        .findFirst()
        .orElse(null);
  }

  private static boolean isTcp(String protocol) {
    return protocol == null || protocol.equals("TCP");
  }

  private static Map<String, String> labels(EndpointSlice slice) {
    Map<String, String> labels = slice.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }
}
