package io.signalbox.bench;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fleet's configuration: {@code clusters} clusters of {@code endpoints} endpoints each, one API
 * listener and one route config (the README's proxyless shape), and a deterministic sequence of
 * one-endpoint changes. Endpoint {@code j} of cluster {@code i} is {@code 127.0.0.(1+j):(10000+i)};
 * change {@code k} sets the weight of one endpoint to {@code 2+k}, a value no earlier state had, so
 * a client can tell the new content from every older one.
 *
 * @param zonePreference every cluster has {@code zonePreference: SAME_ZONE} and client {@code i}
 *     runs in zone {@code i mod zones} (its node locality), so each zone's clients are sent their
 *     zone's view of every assignment (issue 44's per-client EDS variants, measured)
 */
public record Workload(int clusters, int endpoints, int zones, boolean zonePreference) {

  public static final String LISTENER = "api";
  public static final String ROUTE_CONFIG = "api";
  static final int MAX_ENDPOINTS = 250;
  static final int MAX_ZONES = 26;

  /** Every endpoint in zone {@code a}: one locality per cluster. */
  public Workload(int clusters, int endpoints) {
    this(clusters, endpoints, 1);
  }

  /** No zone preference; clients name no zone. */
  public Workload(int clusters, int endpoints, int zones) {
    this(clusters, endpoints, zones, false);
  }

  /** The zone client {@code id}'s node names: empty without {@link #zonePreference}. */
  String clientZone(int id) {
    return zonePreference ? zone(id) : "";
  }

  public Workload {
    if (zones < 1 || zones > Math.min(MAX_ZONES, endpoints)) {
      throw new IllegalArgumentException("zones must be 1.." + Math.min(MAX_ZONES, endpoints) + ", was " + zones);
    }
    if (clusters < 1 || clusters > 50_000) {
      throw new IllegalArgumentException("clusters must be 1..50000, was " + clusters);
    }
    if (endpoints < 1 || endpoints > MAX_ENDPOINTS) {
      throw new IllegalArgumentException("endpoints must be 1.." + MAX_ENDPOINTS + ", was " + endpoints);
    }
  }

  /** One endpoint's new weight. */
  public record Change(int index, int cluster, int endpoint, int weight) {
    public String address() {
      return Workload.address(endpoint);
    }
  }

  public String clusterName(int i) {
    return "cluster-" + String.format("%05d", i);
  }

  /** Cluster name → index, for clients that must map a resource name back quickly. */
  public Map<String, Integer> clusterIndex() {
    Map<String, Integer> index = new HashMap<>(clusters * 2);
    for (int i = 0; i < clusters; i++) {
      index.put(clusterName(i), i);
    }
    return index;
  }

  static String address(int endpoint) {
    return "127.0.0." + (1 + endpoint);
  }

  /** Endpoint {@code j}'s zone: {@code a}, {@code b}, … round-robin over {@link #zones}. */
  String zone(int endpoint) {
    return String.valueOf((char) ('a' + endpoint % zones));
  }

  /** The zones in use, each a locality of every cluster's assignment (priority 0: the zone alone). */
  List<String> zoneNames() {
    List<String> out = new ArrayList<>(zones);
    for (int z = 0; z < zones; z++) {
      out.add(zone(z));
    }
    return out;
  }

  static int port(int cluster) {
    return 10_000 + cluster;
  }

  /** Change {@code k}: spread over clusters and endpoints so consecutive changes touch different ones. */
  public Change change(int k) {
    if (k < 0 || 2 + k > 10_000) {
      throw new IllegalArgumentException("change index out of range: " + k);
    }
    return new Change(k, (int) ((k * 37L) % clusters), k % endpoints, 2 + k);
  }

  /** The endpoint file after changes {@code 0..appliedChanges-1}. */
  public String endpointFile(int appliedChanges) {
    int[][] weights = weights(appliedChanges);
    StringBuilder out = new StringBuilder(clusters * endpoints * 80);
    out.append("clusters:\n");
    for (int i = 0; i < clusters; i++) {
      out.append("  ").append(clusterName(i)).append(":\n");
      for (int j = 0; j < endpoints; j++) {
        out.append("    - { address: ").append(address(j)).append(", port: ").append(port(i))
            .append(", zone: ").append(zone(j)).append(", weight: ").append(weights[i][j]).append(", state: READY }\n");
      }
    }
    return out.toString();
  }

  /**
   * What {@link #endpointFile} reads as, built directly: a whole read of a file of 10,000 × 10
   * endpoints takes seconds (see docs/benchmarks.md), and benchmarks need that state at once.
   */
  public Map<String, List<EndpointSpec>> endpointSpecs(int appliedChanges) {
    int[][] weights = weights(appliedChanges);
    Map<String, List<EndpointSpec>> out = new TreeMap<>();
    for (int i = 0; i < clusters; i++) {
      List<EndpointSpec> list = new ArrayList<>(endpoints);
      for (int j = 0; j < endpoints; j++) {
        list.add(new EndpointSpec(address(j), port(i), zone(j), weights[i][j], 0, EndpointState.READY,
            "file:endpoints.yaml"));
      }
      out.put(clusterName(i), list);
    }
    return out;
  }

  /** {@link #endpointFile} as JSON: the same endpoints, which the file source reads much faster. */
  public String endpointFileJson(int appliedChanges) {
    int[][] weights = weights(appliedChanges);
    StringBuilder out = new StringBuilder(clusters * endpoints * 90);
    out.append("{\"clusters\": {\n");
    for (int i = 0; i < clusters; i++) {
      out.append("  \"").append(clusterName(i)).append("\": [\n");
      for (int j = 0; j < endpoints; j++) {
        out.append("    {\"address\": \"").append(address(j)).append("\", \"port\": ").append(port(i))
            .append(", \"zone\": \"").append(zone(j)).append("\", \"weight\": ").append(weights[i][j]).append(", \"state\": \"READY\"}")
            .append(j + 1 < endpoints ? ",\n" : "\n");
      }
      out.append(i + 1 < clusters ? "  ],\n" : "  ]\n");
    }
    return out.append("}}\n").toString();
  }

  private int[][] weights(int appliedChanges) {
    int[][] weights = new int[clusters][endpoints];
    for (int[] w : weights) {
      java.util.Arrays.fill(w, 1);
    }
    for (int k = 0; k < appliedChanges; k++) {
      Change c = change(k);
      weights[c.cluster()][c.endpoint()] = c.weight();
    }
    return weights;
  }

  /**
   * The Signalbox config (also read by the plain java-control-plane server, so both serve the same
   * resources).
   *
   * @param store {@code memory} or {@code embedded}
   * @param debounce the reconciler's debounce, e.g. {@code 100ms} (Signalbox's default)
   * @param fileQuietPeriod {@code sources.fileQuietPeriod}, e.g. {@code 100ms} (the default)
   */
  public String config(int xdsPort, int adminPort, String store, String debounce) {
    return config(xdsPort, adminPort, store, debounce, "100ms");
  }

  /** As above, with {@code sources.fileQuietPeriod}. */
  public String config(int xdsPort, int adminPort, String store, String debounce, String fileQuietPeriod) {
    return config(xdsPort, adminPort, store, debounce, fileQuietPeriod, null);
  }

  /**
   * As above; with a {@code loadReportingInterval} (e.g. {@code 10s}), every cluster has {@code
   * loadReporting: true} (through {@code clusterDefaults}: the clusters come from the endpoint file),
   * so its CDS names Signalbox as the LRS server, and that is the interval clients are told. The
   * java-control-plane baselines read the same file and ignore both.
   */
  public String config(int xdsPort, int adminPort, String store, String debounce, String fileQuietPeriod,
      String loadReportingInterval) {
    List<String> defaults = new ArrayList<>();
    if (loadReportingInterval != null) {
      defaults.add("loadReporting: true");
    }
    if (zonePreference) {
      defaults.add("zonePreference: SAME_ZONE");
    }
    String lrs = defaults.isEmpty() ? "" : "clusterDefaults: { " + String.join(", ", defaults) + " }\n";
    String interval = loadReportingInterval == null ? "" : ", loadReportingInterval: " + loadReportingInterval;
    return """
        xds: { address: 127.0.0.1, port: %d%s }
        admin: { address: 127.0.0.1, port: %d }
        store: { url: %s, dataDir: ./data }
        sources:
          files: [ ./endpoints.yaml ]
          fileQuietPeriod: %s
        reconcile: { debounce: %s }
        listeners:
          - name: %s
            apiListener: true
            routeConfig: %s
        routeConfigs:
          - name: %s
            virtualHosts:
              - name: api
                domains: [ "*" ]
                routes:
                  - match: { prefix: "" }
                    cluster: %s
        %s""".formatted(xdsPort, interval, adminPort, store, fileQuietPeriod, debounce, LISTENER, ROUTE_CONFIG, ROUTE_CONFIG, clusterName(0), lrs);
  }
}
