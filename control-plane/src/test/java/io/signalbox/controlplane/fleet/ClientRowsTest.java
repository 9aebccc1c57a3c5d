package io.signalbox.controlplane.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.NackStatus;
import io.signalbox.controlplane.xds.TypeStatus;
import io.signalbox.store.ClientRecord;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
      // What the stream refuses and subscribes to is not delivery: a change of it is written at once.
      boolean notDelivery = java.util.Set.of("refusing", "wildcard", "names").contains(c.getName());
      assertThat(ClientRows.sameButSeenAndDelivery(ROW, other)).as(c.getName()).isEqualTo(!notDelivery);
      assertThat(ClientRows.sameDelivery(ROW.position(), other.position())).as(c.getName()).isEqualTo(notDelivery);
    }
  }

  /**
   * The recorder's short path decides on two statuses what their rows would say: over a seeded
   * random walk of one client's status (delivery moving, NACKs, standing NACKs, types coming and
   * going, fields the rows do not carry), {@code sameButDelivery} answers exactly as building both
   * statuses' rows and comparing them does.
   */
  @Test
  void sameButDeliveryOnStatusesIsTheComparisonOfTheirRows() {
    Random random = new Random(32);
    ClientStatus status = status("n1", 7, Map.of("cds", type(1, null, 0, Map.of())));
    int agreedTrue = 0;
    for (int step = 0; step < 5_000; step++) {
      ClientStatus next = step(status, random);
      boolean rows = sameRowsButSeenAndDelivery(status, next);
      assertThat(ClientRows.sameButDelivery(status, next)).as("step %d: %s -> %s", step, status, next)
          .isEqualTo(rows);
      agreedTrue += rows ? 1 : 0;
      status = next;
    }
    // Both answers are exercised, not only "different".
    assertThat(agreedTrue).isBetween(1_000, 4_000);
  }

  private static final String[] TYPES = {"cds", "eds", "lds", "rds"};
  private static final String[] MESSAGES = {"bad", "worse"};

  private static ClientStatus step(ClientStatus s, Random random) {
    Map<String, TypeStatus> types = new LinkedHashMap<>(s.types());
    String url = TYPES[random.nextInt(TYPES.length)];
    TypeStatus t = types.getOrDefault(url, type(1, null, 0, Map.of()));
    String nodeId = s.nodeId();
    String zone = s.zone();
    long streamId = s.streamId();
    switch (random.nextInt(12)) {
      case 0, 1, 2, 3 -> types.put(url, type(t.sentEpoch() + 1 + random.nextInt(2), t.nack(), t.nacks(), t.refusing()));
      case 4 -> types.put(url, type(t.sentEpoch(), random.nextBoolean() ? null
          : new NackStatus(random.nextInt(2), random.nextInt(3), MESSAGES[random.nextInt(2)],
              T.plusSeconds(random.nextInt(2)), Map.of("a", "v" + random.nextInt(2))), t.nacks(), t.refusing()));
      case 5 -> types.put(url, type(t.sentEpoch(), t.nack(), t.nacks() + random.nextInt(2), t.refusing()));
      case 6 -> types.put(url, type(t.sentEpoch(), t.nack(), t.nacks(),
          random.nextBoolean() ? Map.of() : Map.of("a", "v" + random.nextInt(2))));
      case 7 -> types.remove(url);
      case 8 -> nodeId = random.nextInt(8) == 0 ? "n2" : nodeId;
      case 9 -> zone = random.nextInt(8) == 0 ? zone + "x" : zone;
      case 10 -> streamId = random.nextInt(8) == 0 ? streamId + 1 : streamId;
      default -> types.put(url, new TypeStatus(t.sentVersion(), t.sentEpoch(), t.sentAt(), t.ackedVersion(),
          t.ackedEpoch(), t.ackedAt(), t.syncedEpoch(), !t.wildcard(), t.subscribed() + 1, t.nack(), t.nacks(),
          t.responses() + 1, t.bytesSent() + 10, t.refusing()));
    }
    return new ClientStatus(nodeId, s.nodeCluster(), zone, s.userAgent(), s.region(), streamId, s.delta(),
        s.connectedAt(), s.wave(), s.epoch() + 1, s.lastConvergence(), Map.copyOf(types));
  }

  private static TypeStatus type(long epoch, NackStatus nack, long nacks, Map<String, String> refusing) {
    return new TypeStatus(Long.toString(epoch), epoch, T.plusSeconds(epoch), Long.toString(epoch - 1), epoch - 1,
        T.plusSeconds(epoch), epoch - 1, false, 3, nack, nacks, epoch, 100 * epoch, refusing);
  }

  private static ClientStatus status(String nodeId, long streamId, Map<String, TypeStatus> types) {
    return new ClientStatus(nodeId, "fleet", "zone-a", "envoy", "", streamId, true, T, "rest", 0, null, types);
  }

  /** The fresh computation: both statuses' rows built and compared one by one. */
  private static boolean sameRowsButSeenAndDelivery(ClientStatus a, ClientStatus b) {
    Map<ClientRecord.Key, ClientRecord> before = new HashMap<>();
    for (ClientRecord row : ClientRows.of("replica-a", a, T)) {
      before.put(row.key(), row);
    }
    List<ClientRecord> after = ClientRows.of("replica-a", b, T.plusSeconds(5));
    if (after.size() != before.size()) {
      return false;
    }
    for (ClientRecord row : after) {
      ClientRecord was = before.get(row.key());
      if (was == null || !ClientRows.sameButSeenAndDelivery(was, row)) {
        return false;
      }
    }
    return true;
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
    if (type == java.util.Set.class) {
      return java.util.Set.of("another-name");
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
