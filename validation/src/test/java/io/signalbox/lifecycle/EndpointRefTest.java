package io.signalbox.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Any address of an endpoint names it, as its own address does (issue 44). */
class EndpointRefTest {

  static final List<EndpointSpec> SERVED = List.of(
      new EndpointSpec("10.0.0.5", 8080, "", 1, 0, null, "file").withAdditionalAddresses(List.of("fd00::5")),
      new EndpointSpec("10.0.0.6", 8080, "", 1, 0, null, "file"));

  static Optional<EndpointRef> resolve(String key) {
    return EndpointRef.parse("web", key).resolve(SERVED);
  }

  @Test
  void anAdditionalAddressResolvesToTheEndpointsOwn() {
    EndpointRef own = new EndpointRef("web", "10.0.0.5", 8080);

    assertThat(resolve("10.0.0.5:8080")).contains(own);
    assertThat(resolve("[fd00::5]:8080")).contains(own);
    assertThat(resolve("[FD00::5]:8080")).contains(own);
    assertThat(resolve("10.0.0.6:8080")).contains(new EndpointRef("web", "10.0.0.6", 8080));
  }

  @Test
  void anAddressNoEndpointAnswersOnResolvesToNone() {
    assertThat(resolve("[fd00::5]:8081")).isEmpty();
    assertThat(resolve("[fd00::6]:8080")).isEmpty();
    assertThat(resolve("10.0.0.7:8080")).isEmpty();
  }
}
