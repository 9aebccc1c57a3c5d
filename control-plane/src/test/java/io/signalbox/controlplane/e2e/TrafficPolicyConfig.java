package io.signalbox.controlplane.e2e;

/** The config {@link TrafficPolicyIT} serves: one API listener, route config and cluster per behaviour. */
final class TrafficPolicyConfig {

  private TrafficPolicyConfig() {}

  private static String listener(String name) {
    return "  - { name: " + name + ", apiListener: true, routeConfig: " + name + " }\n";
  }

  private static String routeConfig(String name, String cluster, String policy) {
    return """
          - name: %s
            virtualHosts:
              - name: %s
                domains: [ "*" ]
                routes:
                  - match: { prefix: "" }
                    cluster: %s
        %s""".formatted(name, name, cluster, policy.isEmpty() ? "" : "            " + policy + "\n");
  }

  static String yaml(int xdsPort) {
    return """
        xds: { port: %d }
        rollout: { settle: 1s }
        admin: { port: 0 }
        store: { url: memory }
        sources:
          files: [ ./affinity.yaml, ./failover.yaml, ./retry.yaml, ./wrr.yaml ]
        reconcile: { debounce: 50ms, maxDelay: 500ms }
        clusterDefaults: { massRemovalPercent: 100 }
        listeners:
        """.formatted(xdsPort)
        + listener("affinity") + listener("one-zone") + listener("two-zones") + listener("retry")
        + listener("no-retry") + listener("orca") + listener("ignored") + listener("near") + listener("channel")
        + listener("terminal") + listener("not-terminal")
        + "routeConfigs:\n"
        + routeConfig("affinity", "affinity", "hashPolicy: [ { header: x-user } ]")
        + routeConfig("one-zone", "one-zone", "")
        + routeConfig("two-zones", "two-zones", "")
        + routeConfig("retry", "flaky",
            "retryPolicy: { retryOn: [ unavailable ], numRetries: 2, backoff: { base: 10ms, max: 50ms } }")
        + routeConfig("no-retry", "flaky", "")
        + routeConfig("orca", "orca", "")
        + routeConfig("near", "near", "")
        + routeConfig("channel", "affinity", "hashPolicy: [ { channelId: true } ]")
        + routeConfig("terminal", "affinity", "hashPolicy: [ { header: x-user, terminal: true }, { channelId: true } ]")
        + routeConfig("not-terminal", "affinity", "hashPolicy: [ { header: x-user }, { channelId: true } ]")
        + routeConfig("ignored", "ignored", "hashPolicy: [ { cookie: { name: sid, ttl: 1h } }, { sourceIp: true }, "
            + "{ queryParameter: tenant } ]\n            timeout: 5s\n"
            + "            retryPolicy: { retryOn: [ 5xx, retriable-status-codes ], retriableStatusCodes: [ 503 ], "
            + "perTryTimeout: 1s, backoff: { base: 10ms, max: 100ms } }")
        + """
        clusters:
          - { name: affinity, lbPolicy: RING_HASH, ringHash: { minimumRingSize: 1024, maximumRingSize: 4096 } }
          - { name: one-zone, overprovisioningFactor: 140 }
          - { name: two-zones, overprovisioningFactor: 140 }
          - { name: flaky }
          - name: orca
            lbPolicy: WEIGHTED_ROUND_ROBIN
            weightedRoundRobin: { blackoutPeriod: 0s, weightExpirationPeriod: 3m, weightUpdatePeriod: 100ms,
                                  errorUtilizationPenalty: 1.0, enableOobLoadReport: false, oobReportingPeriod: 10s }
          - name: ignored
            lbPolicy: RING_HASH
            panicThreshold: 0
            localityLb: LOCALITY_WEIGHTED
            overprovisioningFactor: 200
            retryBudget: { budgetPercent: 20, minRetryConcurrency: 3 }
          - name: near
            localityLb: ZONE_AWARE
            zoneAware: { minClusterSize: 2, routingPercent: 100 }
        """;
  }
}
