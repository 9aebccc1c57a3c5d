package io.signalbox.controlplane.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The structural diff of two treaps visits exactly what a key-by-key comparison finds. */
class TreapDiffTest {

  private static final MerkleTreap.ValueDigest<String> TEXT = v -> v.getBytes(StandardCharsets.UTF_8);

  /** One change deriving the second map from the first. */
  sealed interface Op {}

  record Put(int key, int value) implements Op {}

  record Remove(int key) implements Op {}

  /** The same content in a new instance: a visit, though an equal value. */
  record Recopy(int key) implements Op {}

  record Diffed(String key, String before, String after) {}

  @Provide
  Arbitrary<List<Integer>> keySets() {
    return Arbitraries.integers().between(0, 199).list().ofMaxSize(120);
  }

  @Provide
  Arbitrary<List<Op>> changes() {
    Arbitrary<Integer> key = Arbitraries.integers().between(0, 199);
    Arbitrary<Op> op = Arbitraries.oneOf(
        Combinators.combine(key, Arbitraries.integers().between(0, 3)).as(Put::new),
        key.map(Remove::new),
        key.map(Recopy::new));
    return op.list().ofMaxSize(30);
  }

  @Property(tries = 500, seed = "8128")
  void visitsExactlyTheKeysWhoseValueIsAnotherInstance(@ForAll("keySets") List<Integer> keys,
      @ForAll("changes") List<Op> ops) {
    MerkleTreap<String> before = MerkleTreap.empty(TEXT);
    for (int k : keys) {
      before = before.with(key(k), new String("v" + k));
    }
    MerkleTreap<String> after = before;
    for (Op op : ops) {
      if (op instanceof Put p) {
        after = after.with(key(p.key()), new String("v" + p.value()));
      } else if (op instanceof Remove r) {
        after = after.without(key(r.key()));
      } else if (op instanceof Recopy c) {
        after = after.withSameContent(new String[] {key(c.key())}, String::new);
      }
    }

    assertThat(diff(before, after)).isEqualTo(naive(before, after));
    assertThat(diff(after, before)).isEqualTo(naive(after, before));
    // Built independently, nothing shared: every value is another instance, and the walk still pairs them.
    MerkleTreap<String> rebuilt = MerkleTreap.copyOf(new TreeMap<>(after), TEXT, String::new);
    assertThat(diff(before, rebuilt)).isEqualTo(naive(before, rebuilt));
  }

  @Test
  void aMapComparedWithItselfOrASharingCopyVisitsNothing() {
    MerkleTreap<String> map = MerkleTreap.empty(TEXT);
    for (int k = 0; k < 1_000; k++) {
      map = map.with(key(k), "v");
    }
    String v = map.get(key(500));

    assertThat(diff(map, map)).isEmpty();
    assertThat(diff(map, map.with(key(500), v))).isEmpty();
    assertThat(diff(map, map.with(key(500), "w"))).containsExactly(new Diffed(key(500), "v", "w"));
    assertThat(diff(map.without(key(7)), map)).containsExactly(new Diffed(key(7), null, "v"));
    assertThat(diff(MerkleTreap.empty(TEXT), MerkleTreap.empty(TEXT))).isEmpty();
  }

  private static String key(int k) {
    return "cluster-" + String.format("%03d", k);
  }

  private static List<Diffed> diff(MerkleTreap<String> a, MerkleTreap<String> b) {
    List<Diffed> out = new ArrayList<>();
    TreapDiff.of(a, b, (key, before, after) -> out.add(new Diffed(key, before, after)));
    return out;
  }

  private static List<Diffed> naive(Map<String, String> a, Map<String, String> b) {
    TreeSet<String> keys = new TreeSet<>(a.keySet());
    keys.addAll(b.keySet());
    List<Diffed> out = new ArrayList<>();
    for (String k : keys) {
      if (a.get(k) != b.get(k)) {
        out.add(new Diffed(k, a.get(k), b.get(k)));
      }
    }
    return out;
  }
}
