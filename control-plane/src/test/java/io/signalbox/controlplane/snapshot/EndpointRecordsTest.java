package io.signalbox.controlplane.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EndpointRecordsTest {

  @Test
  void aStoredEpochKeepsEachEndpointsCapacityAndItsAbsence() {
    EndpointSpec declared = new EndpointSpec("10.0.0.1", 80, "a", 2, 0, EndpointState.READY, "file:e.yaml", 100);
    EndpointSpec undeclared = new EndpointSpec("10.0.0.2", 80, "a", 2, 0, EndpointState.DRAINING, "file:e.yaml");

    var records = List.of(EndpointRecords.toProto("web", declared), EndpointRecords.toProto("web", undeclared));

    assertThat(EndpointRecords.fromProto(records)).isEqualTo(Map.of("web", List.of(declared, undeclared)));
    // Absent, not 0: an epoch stored before capacity existed reads back exactly as before.
    assertThat(records.get(1).hasCapacityRps()).isFalse();
  }
}
