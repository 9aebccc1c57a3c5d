package io.signalbox.controlplane.e2e;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Iterator;
import java.util.function.Function;
import net.jqwik.api.Arbitrary;
import net.jqwik.engine.SourceOfRandomness;

/**
 * Generated bad inputs for the adversarial tables: jqwik's arbitraries drawn with a fixed seed, so
 * a table is the same list on every run and on every machine (its size is in docs/reliability.md).
 */
final class Mutations {

  private Mutations() {}

  /**
   * {@code count} distinct values of {@code arbitrary} (distinct by {@code key}), drawn with
   * {@code seed}; fails when the arbitrary cannot produce that many within a bounded number of tries.
   */
  static <T> List<T> distinct(Arbitrary<T> arbitrary, long seed, int count, Function<T, String> key) {
    // Outside a property, jqwik samples with the calling thread's source of randomness: seeded
    // here, the sample is the same on every run (the engine's own way to fix a seed, which a
    // @Property(seed = ...) uses too).
    SourceOfRandomness.create(Long.toString(seed));
    Map<String, T> out = new LinkedHashMap<>();
    Iterator<T> values = arbitrary.sampleStream().iterator();
    for (int tries = 0; out.size() < count; tries++) {
      if (tries > count * 50) {
        throw new IllegalStateException("only " + out.size() + " distinct of " + count + " after " + tries + " tries");
      }
      T value = values.next();
      out.putIfAbsent(key.apply(value), value);
    }
    return List.copyOf(out.values());
  }
}
