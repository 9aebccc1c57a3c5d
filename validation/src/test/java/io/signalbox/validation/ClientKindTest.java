package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClientKindTest {

  @Test
  void tellsEachKnownClientByTheUserAgentItSends() {
    assertThat(ClientKind.ofUserAgent("gRPC Java")).contains(ClientKind.GRPC_JAVA);
    assertThat(ClientKind.ofUserAgent("gRPC Node Pure JS")).contains(ClientKind.GRPC_JS);
    assertThat(ClientKind.ofUserAgent("envoy")).contains(ClientKind.ENVOY);
  }

  @Test
  void tellsAUserAgentReportedWithItsVersion() {
    // ClientStatus reports name and version together.
    assertThat(ClientKind.ofUserAgent("gRPC Java 1.85.1")).contains(ClientKind.GRPC_JAVA);
    assertThat(ClientKind.ofUserAgent("gRPC Node Pure JS 1.14.0")).contains(ClientKind.GRPC_JS);
    assertThat(ClientKind.ofUserAgent("Envoy 1.33.0")).contains(ClientKind.ENVOY);
  }

  @Test
  void anAbsentOrUnknownUserAgentIsNoKind() {
    assertThat(ClientKind.ofUserAgent(null)).isEqualTo(Optional.empty());
    assertThat(ClientKind.ofUserAgent("")).isEmpty();
    assertThat(ClientKind.ofUserAgent("gRPC Go")).isEmpty();
    assertThat(ClientKind.ofUserAgent("envoyish")).isEmpty();
  }

  @Test
  void eachKindHasTheLabelTheDocsAndWarningsUse() {
    assertThat(ClientKind.ofLabel("armeria")).contains(ClientKind.ARMERIA);
    assertThat(ClientKind.ofLabel("grpc-js")).contains(ClientKind.GRPC_JS);
    assertThat(ClientKind.ofLabel("Armeria")).isEmpty();
  }
}
