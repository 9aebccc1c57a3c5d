package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import org.junit.jupiter.api.Test;

/** The key's hand-written equals and hashCode, against every component it has. */
class ClientRecordKeyTest {

  private static final ClientRecord.Key KEY = new ClientRecord.Key("replica-a", "n1", 7, "type");

  @Test
  void equalKeysAreEqualAndHashAlike() {
    ClientRecord.Key copy = new ClientRecord.Key(new String("replica-a"), new String("n1"), 7, new String("type"));
    assertThat(copy).isEqualTo(KEY).hasSameHashCodeAs(KEY);
    assertThat(KEY).isNotEqualTo(null).isNotEqualTo("replica-a");
  }

  @Test
  void everyComponentTellsKeysApart() throws Exception {
    RecordComponent[] components = ClientRecord.Key.class.getRecordComponents();
    for (RecordComponent changed : components) {
      Object[] args = new Object[components.length];
      Class<?>[] types = new Class<?>[components.length];
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getType();
        Object value = components[i].getAccessor().invoke(KEY);
        if (components[i].getName().equals(changed.getName())) {
          value = value instanceof Long l ? (Object) (l + 1) : value + "-other";
        }
        args[i] = value;
      }
      ClientRecord.Key other = ClientRecord.Key.class.getDeclaredConstructor(types).newInstance(args);
      assertThat(other).as(changed.getName()).isNotEqualTo(KEY);
      assertThat(other.hashCode()).as(changed.getName()).isNotEqualTo(KEY.hashCode());
    }
  }
}
