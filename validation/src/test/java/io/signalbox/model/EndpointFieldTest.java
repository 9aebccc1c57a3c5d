package io.signalbox.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointFieldTest {

  private static final EndpointSpec E =
      new EndpointSpec("10.0.0.1", 8080, "a", 3, 1, EndpointState.DEGRADED, "file:/e.yaml", 250);

  @Test
  void everyComponentOfTheRecordIsDeclaredOnceByName() {
    List<String> components = Arrays.stream(EndpointSpec.class.getRecordComponents())
        .map(RecordComponent::getName).toList();
    assertThat(EndpointField.ALL).extracting(EndpointField::component)
        .as("EndpointField must list every component of EndpointSpec, in the record's order")
        .containsExactlyElementsOf(components);
  }

  @Test
  void eachFieldReadsItsOwnComponent() throws ReflectiveOperationException {
    for (RecordComponent c : EndpointSpec.class.getRecordComponents()) {
      EndpointField f = EndpointField.ALL.stream().filter(x -> x.component().equals(c.getName())).findFirst()
          .orElseThrow(() -> new AssertionError("no EndpointField for " + c.getName()));
      assertThat(f.value(E)).as(c.getName()).isEqualTo(c.getAccessor().invoke(E));
    }
  }

  @Test
  void capacityIsAnAttribute() {
    assertThat(EndpointField.sameAttributes(E, new EndpointSpec("10.0.0.1", 8080, "a", 3, 1,
        EndpointState.DEGRADED, "registry", 250))).isTrue();
    assertThat(EndpointField.sameAttributes(E, new EndpointSpec("10.0.0.1", 8080, "a", 3, 1,
        EndpointState.DEGRADED, "file:/e.yaml", 300))).isFalse();
  }

  @Test
  void describesTheAttributesAndOnlyTheOptionalOnesThatAreSet() {
    assertThat(EndpointField.describe(E)).isEqualTo("zone a, weight 3, priority 1, DEGRADED, capacityRps 250");
    assertThat(EndpointField.describe(new EndpointSpec("h", 1, "", 1, 0, EndpointState.READY, "registry")))
        .isEqualTo("zone -, weight 1, priority 0, READY");
  }
}
