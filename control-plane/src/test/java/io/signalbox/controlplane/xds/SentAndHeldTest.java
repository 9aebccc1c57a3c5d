package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link SentAndHeld} stores held as sent plus differences; every operation is checked against two
 * plain maps doing the same thing, over long random runs.
 */
class SentAndHeldTest {

  private static final List<String> NAMES = List.of("a", "b", "c", "d", "e", "f");

  private static XdsResource resource(String name, int version, boolean references) {
    return new XdsResource.Stored(XdsType.CLUSTER, name, "v" + version, version,
        com.google.protobuf.Any.getDefaultInstance(), references ? Set.of("child-" + version % 3) : Set.of());
  }

  @Test
  void behavesAsTwoMaps() {
    Random random = new Random(7);
    for (int run = 0; run < 200; run++) {
      SentAndHeld both = new SentAndHeld();
      Map<String, XdsResource> sent = new HashMap<>();
      Map<String, XdsResource> held = new HashMap<>();
      for (int step = 0; step < 200; step++) {
        String name = NAMES.get(random.nextInt(NAMES.size()));
        // Equal but distinct instances too: held and sent agree by value, not only by identity.
        XdsResource r = resource(name, random.nextInt(4), random.nextBoolean());
        String op;
        switch (random.nextInt(11)) {
          case 0, 1 -> {
            op = "send";
            both.send(name, r);
            sent.put(name, r);
          }
          case 2 -> {
            op = "unsend";
            both.unsend(name);
            sent.remove(name);
          }
          case 3, 4 -> {
            op = "hold";
            both.hold(name, r);
            held.put(name, r);
          }
          case 5 -> {
            op = "unhold";
            both.unhold(name);
            held.remove(name);
          }
          case 6 -> {
            op = "sendHeld";
            both.sendHeld();
            sent.clear();
            sent.putAll(held);
          }
          case 7 -> {
            op = "unsendAll";
            both.unsendAll();
            sent.clear();
          }
          case 8 -> {
            op = "holdExactly";
            Map<String, XdsResource> exactly = random.nextBoolean() ? new HashMap<>(sent) : new HashMap<>();
            if (exactly.isEmpty() || random.nextBoolean()) {
              exactly.put(name, r);
            }
            both.holdExactly(exactly);
            held.clear();
            held.putAll(exactly);
          }
          case 9 -> {
            op = "forget";
            both.forget(name);
            sent.remove(name);
            held.remove(name);
          }
          default -> {
            op = "retain";
            Set<String> keep = new HashSet<>(NAMES.subList(0, 1 + random.nextInt(NAMES.size())));
            both.retain(keep::contains);
            sent.keySet().retainAll(keep);
            held.keySet().retainAll(keep);
          }
        }
        String at = "run " + run + ", step " + step + " (" + op + " " + name + ")";
        assertThat(both.sent()).as("sent after %s", at).isEqualTo(sent);
        assertThat(both.heldCopy()).as("held after %s", at).isEqualTo(held);
        assertThat(both.heldIsSent()).as("heldIsSent after %s", at).isEqualTo(held.equals(sent));
        assertThat(new HashSet<>(both.heldNames())).as("heldNames after %s", at).isEqualTo(held.keySet());
        for (String n : NAMES) {
          assertThat(both.held(n)).as("held(%s) after %s", n, at).isEqualTo(held.get(n));
          assertThat(both.holds(n)).isEqualTo(held.containsKey(n));
          assertThat(both.sent(n)).isEqualTo(sent.get(n));
        }
        for (int c = 0; c < 3; c++) {
          String child = "child-" + c;
          assertThat(both.anyHeldReferences(child)).as("references %s after %s", child, at)
              .isEqualTo(held.values().stream().anyMatch(h -> h.references().contains(child)));
        }
      }
    }
  }

  @Test
  void aClientThatAckedEverythingCostsOneMap() {
    SentAndHeld both = new SentAndHeld();
    List<XdsResource> resources = new ArrayList<>();
    for (String n : NAMES) {
      resources.add(resource(n, 1, false));
    }
    resources.forEach(r -> both.send(r.name(), r));
    assertThat(both.heldIsSent()).as("nothing ACKed yet").isFalse();

    resources.forEach(r -> both.hold(r.name(), r));

    assertThat(both.heldIsSent()).isTrue();
    assertThat(both.heldCopy()).hasSize(NAMES.size());
  }
}
