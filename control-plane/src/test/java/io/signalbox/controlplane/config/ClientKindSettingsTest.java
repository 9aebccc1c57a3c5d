package io.signalbox.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.yaml.Parsed;
import io.signalbox.validation.ClientKind;
import io.signalbox.validation.DrainingAs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientKindSettingsTest {

  @Test
  void readsNodeGroupsWithTheirKindAndHowDrainingEndpointsAreSent() {
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse("""
        xds:
          clientKinds:
            - nodeClusters: [ shop-armeria, cart-armeria ]
              kind: ARMERIA
              drainingAs: OMIT
            - nodeClusters: [ web ]
              kind: GRPC_JS
        """, "signalbox.yaml", Path.of("."));
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) parsed).value();
    assertThat(config.xds().clientKinds()).containsExactly(
        new ClientKindSettings(List.of("shop-armeria", "cart-armeria"), ClientKind.ARMERIA, DrainingAs.OMIT),
        new ClientKindSettings(List.of("web"), ClientKind.GRPC_JS, null));
  }

  @Test
  void aGroupThatNamesNoNodeClusterOrChangesNothingIsRefusedAtStart() {
    // The structure alone: parse() refuses such a config, by these very checks.
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.structure("""
        xds:
          clientKinds:
            - nodeClusters: []
              kind: ARMERIA
            - nodeClusters: [ web ]
        """, "signalbox.yaml", Path.of("."))).value();
    assertThat(SecurityChecks.of(config)).extracting(Object::toString).containsExactly(
        "signalbox.yaml: xds.clientKinds[0].nodeClusters: must name at least one node cluster [server]",
        "signalbox.yaml: xds.clientKinds[1]: sets neither kind nor drainingAs, so it changes nothing [server]");
  }

  @Test
  void noClientKindsByDefault() {
    assertThat(XdsSettings.defaults().clientKinds()).isEmpty();
  }
}
