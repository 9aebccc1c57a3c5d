package io.signalbox.controlplane.telemetry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The aggregation's interned names: cluster ids, and keys for cluster × locality (× endpoint) with
 * what each key needs again and again (its cluster, its work-line prefix, the epoch it was last
 * found served in). Ids are dense and stable for the aggregation's life. Owned by the aggregation
 * thread.
 */
final class PlaceKeys {

  record KeyName(int cluster, Locality locality, String endpoint) {}

  private final Map<String, Integer> clusterIds = new HashMap<>();
  private final List<String> clusterNames = new ArrayList<>();
  private final Map<KeyName, Integer> keyIds = new HashMap<>();
  private final List<KeyName> keyNames = new ArrayList<>();
  /** Per key, its work line up to the counts ({@link ClientRows#linePrefix}). */
  private final List<String> keyLines = new ArrayList<>();
  private int[] keyCluster = new int[64];
  /**
   * Per key, the epoch of the {@link KnownClusters} it was last found served in: a report checks a
   * key against what is served once per epoch, not once per report.
   */
  private long[] servedIn = new long[64];

  /** The cluster's id, made the first time it is named. */
  int cluster(String name) {
    Integer id = clusterIds.get(name);
    if (id == null) {
      id = clusterNames.size();
      clusterIds.put(name, id);
      clusterNames.add(name);
    }
    return id;
  }

  /**
   * The key of a cluster × locality (× endpoint) the served snapshot holds, or -1: a key is made the
   * first time it is reported, and checked against what is served again only when that changes.
   */
  int served(KnownClusters served, int cluster, Locality locality, String endpoint) {
    KeyName name = new KeyName(cluster, locality, endpoint);
    Integer id = keyIds.get(name);
    if (id != null && servedIn[id] == served.epoch()) {
      return id;
    }
    String clusterName = clusterNames.get(cluster);
    if (!(endpoint.isEmpty() ? served.knows(clusterName, locality) : served.knows(clusterName, locality, endpoint))) {
      return -1;
    }
    int key = id != null ? id : add(name);
    servedIn[key] = served.epoch();
    return key;
  }

  private int add(KeyName name) {
    int key = keyNames.size();
    keyIds.put(name, key);
    keyNames.add(name);
    keyLines.add(ClientRows.linePrefix(clusterNames.get(name.cluster()), name.locality(), name.endpoint()));
    if (key == keyCluster.length) {
      keyCluster = Arrays.copyOf(keyCluster, key * 2);
      servedIn = Arrays.copyOf(servedIn, key * 2);
    }
    keyCluster[key] = name.cluster();
    return key;
  }

  /** How many keys there are: every key is below this. */
  int size() {
    return keyNames.size();
  }

  KeyName name(int key) {
    return keyNames.get(key);
  }

  String line(int key) {
    return keyLines.get(key);
  }

  int clusterOf(int key) {
    return keyCluster[key];
  }

  String clusterName(int cluster) {
    return clusterNames.get(cluster);
  }

  List<String> clusterNames() {
    return clusterNames;
  }
}
