package io.signalbox.controlplane.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class MerkleTreapTest {

  private static final MerkleTreap.ValueDigest<String> TEXT = v -> v.getBytes(StandardCharsets.UTF_8);

  private static MerkleTreap<String> of(Map<String, String> map) {
    return MerkleTreap.copyOf(map, TEXT, v -> v);
  }

  @Test
  void behavesAsASortedMapThroughAnySequenceOfChanges() {
    Random random = new Random(11);
    TreeMap<String, String> expected = new TreeMap<>();
    MerkleTreap<String> map = MerkleTreap.empty(TEXT);
    for (int step = 0; step < 5_000; step++) {
      String key = "k" + random.nextInt(300);
      if (random.nextInt(3) == 0) {
        expected.remove(key);
        map = map.without(key);
      } else {
        String value = "v" + random.nextInt(5);
        expected.put(key, value);
        map = map.with(key, value);
      }
      if (step % 250 == 0) {
        assertThat(new ArrayList<>(map.entrySet())).isEqualTo(new ArrayList<>(expected.entrySet()));
      }
    }
    MerkleTreap<String> last = map;
    assertThat(last).isEqualTo(expected);
    assertThat(last.size()).isEqualTo(expected.size());
    assertThat(new ArrayList<>(last.keySet())).isEqualTo(new ArrayList<>(expected.keySet()));
    expected.forEach((k, v) -> assertThat(last.get(k)).isEqualTo(v));
    assertThat(last.get("absent")).isNull();
    assertThat(last.containsKey(1)).isFalse();
  }

  @Test
  void aChangeLeavesTheOriginalAsItWasAndSharesTheRest() {
    MerkleTreap<String> before = of(Map.of("a", "1", "b", "2", "c", "3"));

    MerkleTreap<String> after = before.with("b", "20").without("c");

    assertThat(before).isEqualTo(Map.of("a", "1", "b", "2", "c", "3"));
    assertThat(after).isEqualTo(Map.of("a", "1", "b", "20"));
    assertThat(before.without("absent")).isSameAs(before);
    String value = before.get("a");
    assertThat(before.with("a", value)).as("an unchanged value copies nothing").isSameAs(before);
  }

  @Test
  void theFingerprintDependsOnContentOnlyNotOnBuildHistory() {
    Map<String, String> content = new TreeMap<>();
    for (int i = 0; i < 500; i++) {
      content.put("cluster-" + i, "v" + (i % 7));
    }
    MerkleTreap<String> bulk = of(content);
    List<String> keys = new ArrayList<>(content.keySet());
    Collections.shuffle(keys, new Random(3));
    MerkleTreap<String> oneByOne = MerkleTreap.empty(TEXT);
    for (String k : keys) {
      oneByOne = oneByOne.with("extra-" + k, "x").with(k, "stale").with(k, content.get(k));
    }
    for (String k : keys) {
      oneByOne = oneByOne.without("extra-" + k);
    }

    assertThat(oneByOne).isEqualTo(bulk);
    assertThat(oneByOne.fingerprint()).isEqualTo(bulk.fingerprint());
    assertThat(bulk.with("cluster-1", "other").fingerprint()).isNotEqualTo(bulk.fingerprint());
    assertThat(bulk.without("cluster-1").fingerprint()).isNotEqualTo(bulk.fingerprint());
    assertThat(bulk.with("cluster-1", "other").with("cluster-1", content.get("cluster-1")).fingerprint())
        .isEqualTo(bulk.fingerprint());
  }

  @Test
  void keysAndValuesCannotBeConfusedInTheFingerprint() {
    assertThat(of(Map.of("ab", "c")).fingerprint()).isNotEqualTo(of(Map.of("a", "bc")).fingerprint());
    assertThat(of(Map.of("a", "")).fingerprint()).isNotEqualTo(MerkleTreap.empty(TEXT).fingerprint());
  }

  @Test
  void replacingValuesWithSameContentKeepsShapeAndOtherValues() {
    MerkleTreap<String> map = of(Map.of("a", "1", "b", "2", "c", "3", "d", "4"));
    byte[] fingerprint = map.fingerprint();

    MerkleTreap<String> replaced = map.withSameContent(new String[] {"b", "d", "zz"}, v -> new String(v));

    assertThat(replaced).isEqualTo(map);
    assertThat(replaced.get("b")).isNotSameAs(map.get("b"));
    assertThat(replaced.get("a")).isSameAs(map.get("a"));
    assertThat(replaced.fingerprint()).isEqualTo(fingerprint);
    assertThat(map.withSameContent(new String[0], v -> v)).isSameAs(map);
  }

  @Test
  void isImmutableThroughTheMapInterface() {
    MerkleTreap<String> map = of(Map.of("a", "1"));

    assertThatThrownBy(() -> map.put("b", "2")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> map.keySet().remove("a")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> map.entrySet().iterator().next().setValue("x"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void refusesKeysThatAreNotStrictlyAscending() {
    assertThatThrownBy(() -> MerkleTreap.ofSorted(new String[] {"b", "a"}, new String[] {"1", "2"}, 2, TEXT))
        .hasMessage("keys must be non-null and strictly ascending, found 'b' then 'a'");
  }
}
