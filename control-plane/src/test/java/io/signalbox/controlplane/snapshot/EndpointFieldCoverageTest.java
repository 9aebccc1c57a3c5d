package io.signalbox.controlplane.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointField;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The stored form and the content hash against the one list of endpoint fields: for every field,
 * an endpoint that differs from another in that field alone must hash differently and read back
 * from storage with that field intact. A field added to {@link EndpointSpec} and forgotten by
 * {@link EndpointRecords} fails here with its name.
 */
class EndpointFieldCoverageTest {

  private static final EndpointSpec BASE =
      new EndpointSpec("10.0.0.1", 8080, "a", 3, 1, EndpointState.READY, "file:/e.yaml", null);

  @Test
  void everyFieldSurvivesTheStoredForm() {
    for (EndpointField f : EndpointField.ALL) {
      EndpointSpec changed = differingIn(f);
      EndpointSpec back = EndpointRecords.fromProto(List.of(EndpointRecords.toProto("web", changed))).get("web").get(0);
      assertThat(f.value(back)).as("EndpointRecords loses the field '%s'", f.component()).isEqualTo(f.value(changed));
      assertThat(back).as("EndpointRecords round trip with '%s' set", f.component()).isEqualTo(changed);
    }
  }

  @Test
  void everyFieldCountsInTheContentHash() {
    String base = hash(BASE);
    for (EndpointField f : EndpointField.ALL) {
      assertThat(hash(differingIn(f))).as("ContentHash ignores the field '%s'", f.component()).isNotEqualTo(base);
    }
  }

  @Test
  void everyAttributeMakesSourcesDisagree() {
    for (EndpointField f : EndpointField.ALL) {
      assertThat(EndpointField.sameAttributes(BASE, differingIn(f)))
          .as("'%s' compared by the merge", f.component()).isEqualTo(!f.isAttribute());
    }
  }

  private static String hash(EndpointSpec e) {
    return ContentHash.of(Map.of(), MerkleTreap.copyOf(new java.util.TreeMap<>(Map.of("web", List.of(e))),
        ContentHash.ENDPOINTS, List::copyOf));
  }

  /** {@link #BASE} with {@code field} alone set to another value of its type. */
  static EndpointSpec differingIn(EndpointField field) {
    RecordComponent[] components = EndpointSpec.class.getRecordComponents();
    Object[] args = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    try {
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getType();
        args[i] = components[i].getAccessor().invoke(BASE);
        if (components[i].getName().equals(field.component())) {
          args[i] = another(types[i], args[i]);
        }
      }
      Constructor<EndpointSpec> canonical = EndpointSpec.class.getDeclaredConstructor(types);
      return canonical.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static Object another(Class<?> type, Object value) {
    if (type == String.class) {
      return value + "x";
    }
    if (type == int.class || type == Integer.class) {
      return value == null ? 7 : (Integer) value + 1;
    }
    if (type == EndpointState.class) {
      return value == EndpointState.DRAINING ? EndpointState.READY : EndpointState.DRAINING;
    }
    if (type == List.class) {
      return List.of("fd00::9");
    }
    throw new AssertionError("EndpointFieldCoverageTest cannot vary a component of type " + type);
  }
}
