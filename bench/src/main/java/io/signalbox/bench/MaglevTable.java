package io.signalbox.bench;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;

/**
 * Maglev's lookup table as Envoy builds it for hosts of equal weight (Eisenbud et al., NSDI 2016,
 * pseudocode listing 1; Envoy's {@code MaglevTable}): each host's permutation starts at
 * {@code xxHash64(address) % M} and steps by {@code xxHash64(address, 1) % (M - 1) + 1}; hosts take
 * turns claiming their next free slot until all {@code M} (a prime) are taken. A request goes to
 * {@code table[xxHash64(key) % M]}. XXH64 is lz4-java's, the same function as Envoy's
 * {@code HashUtil::xxHash64}. Used only to measure churn: grpc-xds has no Maglev and no Envoy runs here.
 */
final class MaglevTable {

  private static final XXHash64 XX = XXHashFactory.safeInstance().hash64();

  private final int[] table;

  /** @param addresses each host's {@code ip:port}, Envoy's {@code address()->asString()} */
  MaglevTable(List<String> addresses, int size) {
    if (addresses.isEmpty()) {
      throw new IllegalArgumentException("no hosts");
    }
    table = new int[size];
    java.util.Arrays.fill(table, -1);
    long[] offset = new long[addresses.size()];
    long[] skip = new long[addresses.size()];
    long[] next = new long[addresses.size()];
    for (int i = 0; i < addresses.size(); i++) {
      offset[i] = Long.remainderUnsigned(hash(addresses.get(i), 0), size);
      skip[i] = Long.remainderUnsigned(hash(addresses.get(i), 1), size - 1) + 1;
    }
    int filled = 0;
    while (true) {
      for (int i = 0; i < addresses.size(); i++) {
        int c = (int) ((offset[i] + skip[i] * next[i]) % size);
        while (table[c] >= 0) {
          next[i]++;
          c = (int) ((offset[i] + skip[i] * next[i]) % size);
        }
        table[c] = i;
        next[i]++;
        if (++filled == size) {
          return;
        }
      }
    }
  }

  /** The index (in the constructor's list) of the host {@code key} goes to. */
  int host(String key) {
    return table[(int) Long.remainderUnsigned(hash(key, 0), table.length)];
  }

  /** How many table slots each host holds. */
  int[] slots(int hosts) {
    int[] counts = new int[hosts];
    for (int h : table) {
      counts[h]++;
    }
    return counts;
  }

  static long hash(String s, long seed) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return XX.hash(b, 0, b.length, seed);
  }
}
