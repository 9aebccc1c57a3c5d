package io.signalbox.source.kubernetes;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.Arrays;
import java.util.List;

/** Services and EndpointSlices as the EndpointSlice controller writes them. */
final class KubernetesFixtures {

  private KubernetesFixtures() {}

  static Service service(String namespace, String name, ServicePort... ports) {
    return new ServiceBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).addToLabels("app", name).endMetadata()
        .withNewSpec().withPorts(ports).endSpec()
        .build();
  }

  static ServicePort port(String name, int port) {
    return new ServicePortBuilder().withName(name).withPort(port).withProtocol("TCP").build();
  }

  static EndpointSlice slice(String namespace, String name, String service, String portName, int port,
      Endpoint... endpoints) {
    return new EndpointSliceBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name)
        .addToLabels(SliceMapping.SERVICE_NAME_LABEL, service).endMetadata()
        .withAddressType("IPv4")
        .addNewPort().withName(portName).withPort(port).withProtocol("TCP").endPort()
        .withEndpoints(Arrays.asList(endpoints))
        .build();
  }

  static Endpoint ready(String address, String zone) {
    return endpoint(address, zone, true, true, false);
  }

  static Endpoint endpoint(String address, String zone, Boolean ready, Boolean serving, Boolean terminating) {
    return new EndpointBuilder()
        .withAddresses(List.of(address))
        .withZone(zone)
        .withNodeName("node-" + zone)
        .withNewConditions().withReady(ready).withServing(serving).withTerminating(terminating).endConditions()
        .build();
  }
}
