package io.signalbox.controlplane.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.store.ClientRecord;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The recorder's comparisons, written field by field, against every component the rows have. */
class ClientRowsTest {

  private static final Instant T = Instant.parse("2025-06-01T12:00:00Z");
  private static final ClientRecord ROW = new ClientRecord(new ClientRecord.Key("replica-a", "n1", 7, "type"),
      "fleet", "zone-a", "envoy", new ClientRecord.Position("v2", 2, T, "v1", 1, T, 1, Map.of("a", "v2")),
      new ClientRecord.LastNack(2, "bad", T), 1, T, true);

  @Test
  void aCopyIsTheSame() throws Exception {
    ClientRecord copy = with(ROW, null, null);
    assertThat(ClientRows.sameButSeen(ROW, copy)).isTrue();
    assertThat(ClientRows.sameButSeenAndDelivery(ROW, copy)).isTrue();
    assertThat(ClientRows.sameDelivery(ROW.position(), copy.position())).isTrue();
  }

  @Test
  void everyComponentButWhenItWasSeenMakesARowDiffer() throws Exception {
    for (RecordComponent c : ClientRecord.class.getRecordComponents()) {
      if (c.getType() == ClientRecord.Position.class) {
        continue;
      }
      ClientRecord other = with(ROW, c, altered(c.getAccessor().invoke(ROW), c.getType()));
      boolean seenOnly = c.getName().equals("lastSeenAt");
      assertThat(ClientRows.sameButSeen(ROW, other)).as(c.getName()).isEqualTo(seenOnly);
      assertThat(ClientRows.sameButSeenAndDelivery(ROW, other)).as(c.getName()).isEqualTo(seenOnly);
    }
  }

  @Test
  void everyComponentOfThePositionMakesARowDifferItsDeliveryOnlyWhenAsked() throws Exception {
    RecordComponent position = Arrays.stream(ClientRecord.class.getRecordComponents())
        .filter(c -> c.getType() == ClientRecord.Position.class).findFirst().orElseThrow();
    for (RecordComponent c : ClientRecord.Position.class.getRecordComponents()) {
      ClientRecord other = with(ROW, position,
          with(ROW.position(), c, altered(c.getAccessor().invoke(ROW.position()), c.getType())));
      assertThat(ClientRows.sameButSeen(ROW, other)).as(c.getName()).isFalse();
      boolean refusing = c.getName().equals("refusing");
      assertThat(ClientRows.sameButSeenAndDelivery(ROW, other)).as(c.getName()).isEqualTo(!refusing);
      assertThat(ClientRows.sameDelivery(ROW.position(), other.position())).as(c.getName()).isEqualTo(refusing);
    }
  }

  /** {@code r} with {@code changed} set to {@code value}, through the canonical constructor. */
  @SuppressWarnings("unchecked")
  private static <R extends Record> R with(R r, RecordComponent changed, Object value) throws Exception {
    RecordComponent[] components = r.getClass().getRecordComponents();
    Object[] args = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      boolean isChanged = changed != null && components[i].getName().equals(changed.getName());
      args[i] = isChanged ? value : components[i].getAccessor().invoke(r);
    }
    Constructor<?> constructor = r.getClass().getDeclaredConstructor(
        Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
    return (R) constructor.newInstance(args);
  }

  private static Object altered(Object value, Class<?> type) {
    if (type == String.class) {
      return value + "-other";
    }
    if (type == long.class) {
      return (long) value + 1;
    }
    if (type == boolean.class) {
      return !(boolean) value;
    }
    if (type == Instant.class) {
      return ((Instant) value).plusSeconds(1);
    }
    if (type == Map.class) {
      return Map.of("b", "v3");
    }
    if (type == ClientRecord.Key.class) {
      return new ClientRecord.Key("replica-a", "n1", 8, "type");
    }
    if (type == ClientRecord.LastNack.class) {
      return new ClientRecord.LastNack(3, "worse", T);
    }
    throw new IllegalArgumentException("no other value of " + type + ": teach this test the new component");
  }
}
