package io.signalbox.validation;

import static io.signalbox.validation.States.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.ListenerSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListenerRulesTest {

  private static DesiredState withListeners(ListenerSpec... listeners) {
    DesiredState base = valid(ClusterSpec.named("greeter"));
    return new DesiredState(CONFIG, List.of(listeners), base.routeConfigs(), base.clusters(), base.endpoints());
  }

  @Test
  void acceptsApiAndSocketListeners() {
    assertThat(rendered(withListeners(
            apiListener("greeter", "greeter"),
            socketListener("ingress", "0.0.0.0", 10000, "greeter"),
            socketListener("ingress6", "::", 10000, "greeter"))))
        .isEmpty();
  }

  @Test
  void rejectsAddressAndPortOnApiListener() {
    assertThat(rendered(withListeners(new ListenerSpec("greeter", true, "0.0.0.0", 10000, "greeter"))))
        .containsExactly(
            "signalbox.yaml: listener 'greeter': address: must not be set on an API listener, was '0.0.0.0' [listener.kind]",
            "signalbox.yaml: listener 'greeter': port: must not be set on an API listener, was 10000 [listener.kind]");
  }

  @Test
  void rejectsSocketListenerWithoutAddressOrPort() {
    assertThat(rendered(withListeners(socketListener("ingress", null, null, "greeter"))))
        .containsExactly(
            "signalbox.yaml: listener 'ingress': address: is required for a socket listener [required]",
            "signalbox.yaml: listener 'ingress': port: is required for a socket listener [required]");
  }

  @Test
  void rejectsHostnameAndPortOutOfRange() {
    assertThat(rendered(withListeners(socketListener("ingress", "localhost", 70000, "greeter"))))
        .containsExactly(
            "signalbox.yaml: listener 'ingress': address: must be an IP address, was 'localhost' [address]",
            "signalbox.yaml: listener 'ingress': port: must be <= 65535, was 70000 [range]");
    assertThat(rendered(withListeners(socketListener("ingress", "10.0.0.1", 0, "greeter"))))
        .containsExactly("signalbox.yaml: listener 'ingress': port: must be >= 1, was 0 [range]");
  }

  @Test
  void rejectsTwoListenersOnOneAddressAndPort() {
    assertThat(rendered(withListeners(
            socketListener("a", "0.0.0.0", 10000, "greeter"),
            socketListener("b", "0.0.0.0", 10000, "greeter"))))
        .containsExactly(
            "signalbox.yaml: listener 'b': port: 0.0.0.0:10000 is already used by listener 'a' [duplicate.address]");
  }

  @Test
  void rejectsListenerNamingUnknownOrNoRouteConfig() {
    assertThat(rendered(withListeners(
            apiListener("greeter", "greeter"),
            apiListener("other", "nope"),
            apiListener("third", null))))
        .containsExactly(
            "signalbox.yaml: listener 'other': routeConfig: names unknown route config 'nope' [reference.route-config]",
            "signalbox.yaml: listener 'third': routeConfig: is required [required]");
  }
}
