package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link NameMap} does what a HashMap does, whatever the order of puts and removes: a few dozen
 * names over a table that grows, so probe runs wrap around its end, collide and are cut by
 * removals (the backward shift is where an open-addressing table goes wrong).
 */
class NameMapTest {

  record Op(int kind, int name, int version) {}

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 9),
        Arbitraries.integers().between(0, 40), Arbitraries.integers().between(1, 3)).as(Op::new);
    return op.list().ofMinSize(1).ofMaxSize(400);
  }

  @Property(tries = 300)
  void behavesAsAHashMap(@ForAll("ops") List<Op> ops) {
    NameMap map = new NameMap();
    Map<String, XdsResource> model = new HashMap<>();
    for (Op op : ops) {
      String name = "cluster-" + op.name();
      switch (op.kind()) {
        case 0, 1, 2, 3, 4, 5 -> {
          XdsResource r = resource(name, op.version());
          assertThat(map.put(name, r)).isEqualTo(model.put(name, r));
        }
        case 6, 7 -> assertThat(map.remove(name)).isEqualTo(model.remove(name));
        case 8 -> {
          map.removeNames(n -> n.hashCode() % 3 == op.version() % 3);
          model.keySet().removeIf(n -> n.hashCode() % 3 == op.version() % 3);
        }
        default -> {
          if (op.version() == 3) {
            map.clear();
            model.clear();
          }
        }
      }
      assertThat(map.size()).isEqualTo(model.size());
      for (int n = 0; n <= 40; n++) {
        String probe = new String("cluster-" + n); // not the same instance: equals, not identity
        assertThat(map.get(probe)).isEqualTo(model.get(probe));
        assertThat(map.containsKey(probe)).isEqualTo(model.containsKey(probe));
      }
    }
    assertThat(map).isEqualTo(model);
    Map<String, XdsResource> visited = new HashMap<>();
    map.forEach(visited::put);
    assertThat(visited).isEqualTo(model);
  }

  private static XdsResource resource(String name, int version) {
    return new XdsResource.Stored(XdsType.CLUSTER, name, "v" + version, version, Any.getDefaultInstance(), Set.of());
  }
}
