package io.signalbox.validation;

import static io.signalbox.validation.States.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.AdmissionSpec;
import io.signalbox.model.CapacitySpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionRulesTest {

  private static final String CLUSTER = "signalbox.yaml: cluster 'payments': ";

  private static ClusterSpec payments(CapacitySpec capacity, AdmissionSpec admission, boolean loadReporting) {
    return ClusterSpec.named("payments")
        .with(new ClusterSpec.Telemetry(loadReporting ? true : null, null))
        .with(new ClusterSpec.Admission(capacity, admission));
  }

  @Test
  void acceptsTheDesignExample() {
    assertThat(rendered(valid(payments(new CapacitySpec(100),
        new AdmissionSpec(0.8, 10, Duration.ofSeconds(30)), true)))).isEmpty();
    assertThat(rendered(valid(payments(new CapacitySpec(1), new AdmissionSpec(2.0, 100, Duration.ofSeconds(1)), true))))
        .isEmpty();
    assertThat(rendered(valid(payments(new CapacitySpec(1_000_000), null, false)))).isEmpty();
  }

  @Test
  void boundsTheClustersCapacity() {
    assertThat(rendered(valid(payments(new CapacitySpec(0), null, false))))
        .containsExactly(CLUSTER + "capacity.rps: must be an integer from 1 to 1000000, was 0 [range]");
    assertThat(rendered(valid(payments(new CapacitySpec(1_000_001), null, false))))
        .containsExactly(CLUSTER + "capacity.rps: must be an integer from 1 to 1000000, was 1000001 [range]");
    assertThat(rendered(valid(payments(new CapacitySpec(null), null, false))))
        .containsExactly(CLUSTER + "capacity.rps: is required: an integer from 1 to 1000000 [required]");
  }

  @Test
  void boundsUtilizationStepAndWindow() {
    assertThat(rendered(valid(payments(null, new AdmissionSpec(0.0, 0, Duration.ofMillis(500)), true))))
        .containsExactly(
            CLUSTER + "admission.maxUtilization: must be a number in (0, 2.0], was 0.0 [range]",
            CLUSTER + "admission.step: must be >= 1, was 0 [range]",
            CLUSTER + "admission.window: must be >= 1s, was 500ms [range]");
    assertThat(rendered(valid(payments(null, new AdmissionSpec(2.5, 101, null), true))))
        .containsExactly(
            CLUSTER + "admission.maxUtilization: must be a number in (0, 2.0], was 2.5 [range]",
            CLUSTER + "admission.step: must be <= 100, was 101 [range]");
  }

  @Test
  void refusesAdmissionWithoutLoadReports() {
    assertThat(rendered(valid(payments(new CapacitySpec(100), new AdmissionSpec(null, null, null), false))))
        .containsExactly(CLUSTER + "admission: cluster 'payments' declares admission but not loadReporting: true; "
            + "automatic shedding is computed from the clients' load reports [admission.load-reporting]");
  }

  @Test
  void boundsAnEndpointsCapacityAsItsSourceChecksIt() {
    EndpointSpec none = new EndpointSpec("10.0.0.1", 8080, "a", 1, 0, EndpointState.READY, FILE, 0);
    String expected = FILE + ": endpoints of cluster 'greeter'[0] (10.0.0.1:8080): capacity.rps: "
        + "must be an integer from 1 to 1000000, was 0 [range]";

    assertThat(rendered(withEndpoints(List.of(none)))).containsExactly(expected);
    assertThat(SourceEndpointRules.check("greeter", List.of(none)).stream().map(Violation::toString))
        .containsExactly(expected);
    assertThat(rendered(withEndpoints(List.of(
        new EndpointSpec("10.0.0.1", 8080, "a", 1, 0, EndpointState.READY, FILE, 1_000_000))))).isEmpty();
  }

  @Test
  void readsAnAnnotationsCapacityWithTheSameWords() {
    assertThat(AdmissionRules.parseRps(" 250 ")).isEqualTo(new AdmissionRules.Declared(250));
    assertThat(AdmissionRules.parseRps("0"))
        .isEqualTo(new AdmissionRules.Refused("must be an integer from 1 to 1000000, was 0"));
    assertThat(AdmissionRules.parseRps("99999999999"))
        .isEqualTo(new AdmissionRules.Refused("must be an integer from 1 to 1000000, was 99999999999"));
    assertThat(AdmissionRules.parseRps("100rps"))
        .isEqualTo(new AdmissionRules.Refused("must be an integer from 1 to 1000000, was '100rps'"));
  }
}
