package io.signalbox.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.AdmissionSpec;
import io.signalbox.model.CapacitySpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.HashPolicySpec;
import io.signalbox.model.HeaderMatchSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.LocalityLb;
import io.signalbox.model.MaglevSpec;
import io.signalbox.model.OutlierDetectionSpec;
import io.signalbox.model.RetryBudgetSpec;
import io.signalbox.model.RetryPolicySpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.VirtualHostSpec;
import io.signalbox.model.WeightedClusterSpec;
import io.signalbox.model.WeightedRoundRobinSpec;
import io.signalbox.model.ZoneAwareSpec;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.StoreSettings;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

  private static final Path BASE = Path.of("/etc/signalbox");

  private static SignalboxConfig ok(String yaml) {
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(yaml, "signalbox.yaml", BASE);
    assertThat(parsed.violations()).isEmpty();
    return ((Parsed.Ok<SignalboxConfig>) parsed).value();
  }

  private static List<String> problems(String yaml) {
    return ConfigLoader.parse(yaml, "signalbox.yaml", BASE).violations().stream().map(Violation::toString).toList();
  }

  @Test
  void appliesEveryDefaultToAnEmptyMapping() {
    SignalboxConfig config = ok("{}");

    assertThat(config.configSource()).isEqualTo("signalbox.yaml");
    assertThat(config.xds()).isEqualTo(new XdsSettings(18000, "0.0.0.0"));
    assertThat(config.admin()).isEqualTo(new AdminSettings(8080, "127.0.0.1", List.of(), true));
    assertThat(config.store()).isEqualTo(new StoreSettings("embedded", Path.of("/etc/signalbox/data"), null, null, 100));
    assertThat(config.store().embedded()).isTrue();
    assertThat(config.sources().files()).isEmpty();
    assertThat(config.sources().fileQuietPeriod()).isEqualTo(Duration.ofMillis(100));
    assertThat(config.sources().kubernetes()).isEqualTo(new KubernetesSettings(false, List.of("default"), null));
    assertThat(config.sources().registry()).isEqualTo(new RegistrySettings(true, Duration.ofSeconds(30)));
    assertThat(config.reconcile()).isEqualTo(new ReconcileSettings(Duration.ofMillis(100), Duration.ofSeconds(1)));
    assertThat(config.clusterDefaults()).isEqualTo(ClusterSpec.named(null));
    assertThat(config.listeners()).isEmpty();
    assertThat(config.routeConfigs()).isEmpty();
    assertThat(config.clusters()).isEmpty();
  }

  @Test
  void appliesDefaultsInsidePartlyWrittenSections() {
    SignalboxConfig config =
        ok("""
            xds: { address: 127.0.0.1 }
            admin: { openMetrics: false }
            store: { url: memory }
            sources: { kubernetes: { enabled: true } }
            reconcile: { maxDelay: 2s }
            """);

    assertThat(config.xds()).isEqualTo(new XdsSettings(18000, "127.0.0.1"));
    assertThat(config.admin()).isEqualTo(new AdminSettings(8080, "127.0.0.1", List.of(), false));
    assertThat(config.store().memory()).isTrue();
    assertThat(config.sources().kubernetes()).isEqualTo(new KubernetesSettings(true, List.of("default"), null));
    assertThat(config.sources().registry()).isEqualTo(RegistrySettings.defaults());
    assertThat(config.reconcile()).isEqualTo(new ReconcileSettings(Duration.ofMillis(100), Duration.ofSeconds(2)));
  }

  @Test
  void parsesTheDesignExample() {
    SignalboxConfig config =
        ok("""
            xds:   { port: 18000 }
            admin: { port: 8080 }
            store: { url: embedded, dataDir: ./data }        # or jdbc:postgresql://...
            sources:
              files: [ ./endpoints.yaml ]                    # watched; reloaded atomically
              kubernetes: { enabled: false, namespaces: [ default ] }
              registry: { enabled: true, leaseTtl: 30s }
            listeners:
              - name: greeter                                # gRPC proxyless: an API listener
                apiListener: true
                routeConfig: greeter
              - name: ingress
                address: 0.0.0.0
                port: 10000
                routeConfig: web
            routeConfigs:
              - name: greeter
                virtualHosts:
                  - name: greeter
                    domains: [ "*" ]
                    routes:
                      - match: { prefix: "" }
                        cluster: greeter
            clusters:
              - name: greeter
                lbPolicy: ROUND_ROBIN                        # LEAST_REQUEST, RING_HASH, MAGLEV, RANDOM
                connectTimeout: 1s
                slowStart: 30s
                maxEjectionPercent: 10
            """);

    assertThat(config.sources().files()).containsExactly(Path.of("/etc/signalbox/endpoints.yaml"));
    assertThat(config.listeners())
        .containsExactly(
            new ListenerSpec("greeter", true, null, null, "greeter"),
            new ListenerSpec("ingress", false, "0.0.0.0", 10000, "web"));
    assertThat(config.routeConfigs())
        .containsExactly(
            new RouteConfigSpec(
                "greeter",
                List.of(
                    new VirtualHostSpec(
                        "greeter",
                        List.of("*"),
                        List.of(new RouteSpec(new RouteMatchSpec("", null, null), "greeter", null, null))))));
    assertThat(config.clusters())
        .containsExactly(
            new ClusterSpec("greeter",
                new ClusterSpec.Balancing(LbPolicy.ROUND_ROBIN, Duration.ofSeconds(30), null, null, null, null, null),
                new ClusterSpec.Connection(Duration.ofSeconds(1), null, null, null),
                new ClusterSpec.Ejection(10, null),
                null,
                null, null));
  }

  @Test
  void readsRoutesWithHeadersWeightedClustersAndTimeouts() {
    SignalboxConfig config =
        ok("""
            routeConfigs:
              - name: web
                virtualHosts:
                  - name: web
                    domains: [ example.com ]
                    routes:
                      - match: { path: /api, headers: [ { name: x-canary, exact: "1" }, { name: x-debug, present: true } ] }
                        weightedClusters: [ { name: a, weight: 90 }, { name: b, weight: 10 } ]
                        timeout: 1.5s
            """);

    assertThat(config.routeConfigs().get(0).virtualHosts().get(0).routes())
        .containsExactly(
            new RouteSpec(
                new RouteMatchSpec(null, "/api",
                    List.of(new HeaderMatchSpec("x-canary", "1", null, null), new HeaderMatchSpec("x-debug", null, null, true))),
                null,
                List.of(new WeightedClusterSpec("a", 90), new WeightedClusterSpec("b", 10)),
                Duration.ofMillis(1500)));
  }

  @Test
  void reportsAnUnknownKeyDeepInsideWithLineAndSuggestion() {
    assertThat(problems("""
            clusters:
              - name: payments
                outlierDetection:
                  consecutive5xx: 5
                  baseEjectonTime: 30s
            """))
        .containsExactly(
            "signalbox.yaml: line 5, column 7: clusters[0].outlierDetection.baseEjectonTime: "
                + "unknown key 'baseEjectonTime' (did you mean 'baseEjectionTime'?) [parse]");
  }

  @Test
  void reportsEveryStructuralProblemTogether() {
    assertThat(problems("""
            xds: { port: eighteen-thousand }
            admin:
              tokens: [ { name: ci, role: admin, sha256: abc } ]
            sources:
              registry: { leaseTtl: forever }
            clusterDefaults: { name: x, lbPolicy: ROUND }
            clusters:
              - name: a
                conectTimeout: 1s
            listners: []
            """))
        .containsExactly(
            "signalbox.yaml: line 1, column 14: xds.port: expected an integer, was 'eighteen-thousand' [parse]",
            "signalbox.yaml: line 3, column 31: admin.tokens[0].role: expected one of viewer, operator, registrant, was 'admin' [parse]",
            "signalbox.yaml: line 5, column 25: sources.registry.leaseTtl: expected a duration like 250ms, 1s, 2m, 1h, was 'forever' [parse]",
            "signalbox.yaml: line 6, column 20: clusterDefaults.name: unknown key 'name' (expected one of lbPolicy, slowStart, "
                + "panicThreshold, ringHash, leastRequest, maglev, weightedRoundRobin, connectTimeout, circuitBreakers, "
                + "retryBudget, healthCheck, maxEjectionPercent, outlierDetection, minEligible, massRemovalPercent, "
                + "drainTimeout, localityLb, zoneAware, overprovisioningFactor, zonePreference, loadReporting, loadReportingPerEndpoint, capacity, admission) [parse]",
            "signalbox.yaml: line 6, column 39: clusterDefaults.lbPolicy: expected one of ROUND_ROBIN, LEAST_REQUEST, RING_HASH, MAGLEV, RANDOM, WEIGHTED_ROUND_ROBIN, was 'ROUND' [parse]",
            "signalbox.yaml: line 9, column 5: clusters[0].conectTimeout: unknown key 'conectTimeout' (did you mean 'connectTimeout'?) [parse]",
            "signalbox.yaml: line 10, column 1: listners: unknown key 'listners' (did you mean 'listeners'?) [parse]");
  }

  @Test
  void refusesAnotherDriversJdbcUrlAtLoadAndAcceptsEveryPostgresqlOne() {
    assertThat(problems("store: { url: \"jdbc:mysql://db/signalbox\" }\n")).containsExactly(
        "signalbox.yaml: store.url: must be 'embedded', 'memory' or a jdbc:postgresql:// URL, "
            + "was 'jdbc:mysql://db/signalbox' [server]");
    assertThat(ok("store: { url: \"jdbc:postgresql:signalbox\" }\n").store().external()).isTrue();
  }

  @Test
  void readsDurationsInEveryUnit() {
    SignalboxConfig config =
        ok("""
            reconcile: { debounce: 250ms, maxDelay: 1.5s }
            sources: { registry: { leaseTtl: 2m }, fileQuietPeriod: 0ms }
            clusters:
              - name: a
                drainTimeout: 1h
                slowStart: 0s
                outlierDetection: { interval: 10s }
            """);

    assertThat(config.reconcile()).isEqualTo(new ReconcileSettings(Duration.ofMillis(250), Duration.ofMillis(1500)));
    assertThat(config.sources().registry().leaseTtl()).isEqualTo(Duration.ofMinutes(2));
    assertThat(config.sources().fileTiming().quietPeriod()).isEqualTo(Duration.ZERO);
    assertThat(config.sources().fileMaxBytes()).isEqualTo(io.signalbox.source.file.WatchedFile.DEFAULT_MAX_BYTES);
    assertThat(config.clusters().get(0).guards().drainTimeout()).isEqualTo(Duration.ofHours(1));
    assertThat(config.clusters().get(0).balancing().slowStart()).isEqualTo(Duration.ZERO);
    assertThat(config.clusters().get(0).ejection().outlierDetection())
        .isEqualTo(new OutlierDetectionSpec(null, Duration.ofSeconds(10), null, null));
  }

  @Test
  void resolvesRelativePathsAgainstTheConfigFilesDirectory(@TempDir Path dir) throws IOException {
    Path configDir = Files.createDirectories(dir.resolve("conf"));
    Path file = Files.writeString(configDir.resolve("signalbox.yaml"), """
        store: { dataDir: ../state }
        sources: { files: [ endpoints.yaml, ./more/extra.yaml, /abs/x.yaml ] }
        """);

    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(file);

    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) parsed).value();
    assertThat(config.configSource()).isEqualTo(file.toAbsolutePath().toString());
    assertThat(config.store().dataDir()).isEqualTo(dir.resolve("state").toAbsolutePath());
    assertThat(config.sources().files())
        .containsExactly(
            configDir.resolve("endpoints.yaml").toAbsolutePath(),
            configDir.resolve("more/extra.yaml").toAbsolutePath(),
            Path.of("/abs/x.yaml"));
  }

  @Test
  void reportsAMissingConfigFile(@TempDir Path dir) {
    Path file = dir.resolve("absent.yaml");

    List<Violation> violations = ConfigLoader.parse(file).violations();

    assertThat(violations).hasSize(1);
    assertThat(violations.get(0).source()).isEqualTo(file.toAbsolutePath().toString());
    assertThat(violations.get(0).message()).startsWith("cannot read the config file: java.nio.file.NoSuchFileException");
  }

  @Test
  void readsTokensBySha256OrSecretEnvAndBindsAdminToAllInterfaces() {
    SignalboxConfig config =
        ok("""
            admin:
              tokens:
                - { name: ops, role: operator, sha256: ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789 }
                - { name: registrar, role: registrant, secretEnv: SIGNALBOX_REGISTRAR_TOKEN }
            """);

    assertThat(config.admin().address()).isEqualTo("0.0.0.0");
    assertThat(config.admin().tokens())
        .containsExactly(
            new TokenSettings("ops", TokenSettings.Role.OPERATOR, "ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789", null),
            new TokenSettings("registrar", TokenSettings.Role.REGISTRANT, null, "SIGNALBOX_REGISTRAR_TOKEN"));
    Map<String, String> env = Map.of("SIGNALBOX_REGISTRAR_TOKEN", "s3cret");
    assertThat(config.admin().tokens().get(0).expectedSha256(env::get)).contains("abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789");
    assertThat(config.admin().tokens().get(1).expectedSha256(env::get))
        .contains("1ec1c26b50d5d3c58d9583181af8076655fe00756bf7285940ba3670f99fcba0");
    assertThat(config.admin().tokens().get(1).expectedSha256(Map.<String, String>of()::get)).isEqualTo(Optional.empty());
  }

  @Test
  void readsTheDesignTrafficPolicyExampleWithDefaultsForEveryCluster() {
    SignalboxConfig config =
        ok("""
            clusterDefaults: { panicThreshold: 0, overprovisioningFactor: 200 }
            routeConfigs:
              - name: api
                virtualHosts:
                  - name: api
                    domains: [ "*" ]
                    routes:
                      - match: { prefix: "" }
                        cluster: api
                        hashPolicy: [ { header: x-user }, { cookie: { name: sid, ttl: 1h } }, { sourceIp: true }, { channelId: true, terminal: true } ]
                        retryPolicy: { retryOn: [ unavailable, reset, 5xx ], numRetries: 2, perTryTimeout: 1s,
                                       backoff: { base: 25ms, max: 250ms } }
            clusters:
              - name: api
                lbPolicy: RING_HASH
                retryBudget: { budgetPercent: 20, minRetryConcurrency: 3 }
                panicThreshold: 50
                localityLb: LOCALITY_WEIGHTED
                overprovisioningFactor: 140
              - name: near
                localityLb: ZONE_AWARE
                zoneAware: { minClusterSize: 3, routingPercent: 80 }
              - name: orca
                lbPolicy: WEIGHTED_ROUND_ROBIN
                weightedRoundRobin: { blackoutPeriod: 0s, weightUpdatePeriod: 100ms, errorUtilizationPenalty: 0.5 }
              - name: table
                lbPolicy: MAGLEV
                maglev: { tableSize: 65537 }
            """);

    RouteSpec route = config.routeConfigs().get(0).virtualHosts().get(0).routes().get(0);
    assertThat(route.hashPolicy()).containsExactly(
        new HashPolicySpec("x-user", null, null, null, null, null),
        new HashPolicySpec(null, new HashPolicySpec.CookieSpec("sid", Duration.ofHours(1), null), null, null, null, null),
        new HashPolicySpec(null, null, true, null, null, null),
        new HashPolicySpec(null, null, null, null, true, true));
    assertThat(route.retryPolicy()).isEqualTo(new RetryPolicySpec(List.of("unavailable", "reset", "5xx"), 2,
        Duration.ofSeconds(1), new RetryPolicySpec.BackoffSpec(Duration.ofMillis(25), Duration.ofMillis(250)), null));
    List<ClusterSpec> clusters = config.desiredState(Map.of()).clusters();
    assertThat(clusters.get(0)).isEqualTo(new ClusterSpec("api",
        new ClusterSpec.Balancing(LbPolicy.RING_HASH, null, 50, null, null, null, null),
        new ClusterSpec.Connection(null, null, new RetryBudgetSpec(20, 3), null),
        null,
        null,
        new ClusterSpec.Locality(LocalityLb.LOCALITY_WEIGHTED, null, 140), null));
    assertThat(clusters.get(1).locality().zoneAware()).isEqualTo(new ZoneAwareSpec(3L, 80));
    assertThat(clusters.get(1).balancing().panicThreshold()).as("from clusterDefaults").isZero();
    assertThat(clusters.get(1).locality().overprovisioningFactor()).as("from clusterDefaults").isEqualTo(200);
    assertThat(clusters.get(2).balancing().weightedRoundRobin()).isEqualTo(
        new WeightedRoundRobinSpec(Duration.ZERO, null, Duration.ofMillis(100), 0.5, null, null));
    assertThat(clusters.get(3).balancing().maglev()).isEqualTo(new MaglevSpec(65537L));
  }

  @Test
  void readsCapacityAndAdmissionWithClusterDefaults() {
    SignalboxConfig config =
        ok("""
            clusterDefaults: { capacity: { rps: 100 }, loadReporting: true }
            clusters:
              - name: api
                admission: { maxUtilization: 1.0, step: 20, window: 1m }
              - name: big
                capacity: { rps: 5000 }
                admission: {}
            """);

    List<ClusterSpec> clusters = config.desiredState(Map.of()).clusters();

    assertThat(clusters.get(0).admission()).isEqualTo(new ClusterSpec.Admission(new CapacitySpec(100),
        new AdmissionSpec(1.0, 20, Duration.ofMinutes(1))));
    assertThat(clusters.get(1).admission()).isEqualTo(new ClusterSpec.Admission(new CapacitySpec(5000),
        new AdmissionSpec(null, null, null)));
    assertThat(clusters.get(1).admission().effectiveMaxUtilization()).isEqualTo(0.8);
    assertThat(config.clusterFor("discovered").admission())
        .isEqualTo(new ClusterSpec.Admission(new CapacitySpec(100), null));
  }

  @Test
  void reportsAdmissionTyposWithTheirPlace() {
    assertThat(problems("""
            clusters:
              - name: a
                capacity: { rps: lots }
                admission: { maxUtilisation: 0.8, window: soon }
            """))
        .containsExactly(
            "signalbox.yaml: line 3, column 22: clusters[0].capacity.rps: expected an integer, was 'lots' [parse]",
            "signalbox.yaml: line 4, column 18: clusters[0].admission.maxUtilisation: unknown key 'maxUtilisation' (did you mean 'maxUtilization'?) [parse]",
            "signalbox.yaml: line 4, column 47: clusters[0].admission.window: expected a duration like 250ms, 1s, 2m, 1h, was 'soon' [parse]");
  }

  @Test
  void reportsTrafficPolicyTyposWithTheirPlace() {
    assertThat(problems("""
            clusters:
              - name: a
                localityLb: ZONE
                retryBudget: { budgetPercnt: 20 }
            """))
        .containsExactly(
            "signalbox.yaml: line 3, column 17: clusters[0].localityLb: expected one of LOCALITY_WEIGHTED, ZONE_AWARE, was 'ZONE' [parse]",
            "signalbox.yaml: line 4, column 20: clusters[0].retryBudget.budgetPercnt: unknown key 'budgetPercnt' (did you mean 'budgetPercent'?) [parse]");
  }

  @Test
  void buildsDesiredStateWithClusterDefaultsApplied() {
    SignalboxConfig config =
        ok("""
            clusterDefaults: { lbPolicy: LEAST_REQUEST, connectTimeout: 2s, minEligible: 2 }
            clusters:
              - { name: a, connectTimeout: 250ms }
            """);
    List<EndpointSpec> endpoints = List.of(new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:e.yaml"));

    DesiredState state = config.desiredState(Map.of("a", endpoints));

    assertThat(state.configSource()).isEqualTo("signalbox.yaml");
    assertThat(state.clusters())
        .containsExactly(
            new ClusterSpec("a",
                ClusterSpec.Balancing.of(LbPolicy.LEAST_REQUEST),
                new ClusterSpec.Connection(Duration.ofMillis(250), null, null, null),
                null,
                new ClusterSpec.Guards(2, null, null),
                null, null));
    assertThat(state.endpointsOf("a")).isEqualTo(endpoints);
    assertThat(config.clusterFor("discovered"))
        .isEqualTo(new ClusterSpec("discovered",
            ClusterSpec.Balancing.of(LbPolicy.LEAST_REQUEST),
            new ClusterSpec.Connection(Duration.ofSeconds(2), null, null, null),
            null,
            new ClusterSpec.Guards(2, null, null),
            null, null));
  }

  @Test
  void derivesEachDiscoveredClusterOncePerConfigInNameOrderAfterTheDeclaredOnes() {
    SignalboxConfig config =
        ok("""
            clusterDefaults: { lbPolicy: LEAST_REQUEST }
            clusters:
              - { name: m }
            """);
    List<EndpointSpec> one = List.of(new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:e.yaml"));
    var states = config.desiredStates();

    DesiredState first = states.apply(Map.of("z", one, "m", one, "b", one));
    DesiredState second = states.apply(new java.util.TreeMap<>(Map.of("b", one, "c", one)));

    assertThat(first.clusters()).extracting(ClusterSpec::name).containsExactly("m", "b", "z");
    assertThat(first.clusters()).isEqualTo(config.desiredState(Map.of("z", one, "m", one, "b", one)).clusters());
    assertThat(second.clusters()).extracting(ClusterSpec::name).containsExactly("m", "b", "c");
    assertThat(second.clusters().get(1)).isSameAs(first.clusters().get(1));
    assertThat(second.clusters().get(2)).isEqualTo(config.clusterFor("c"));
  }

  @Test
  void keepsTheClusterListOfTheEpochBeforeWhileTheClustersStayTheSame() {
    SignalboxConfig config =
        ok("""
            clusters:
              - { name: m }
            """);
    List<EndpointSpec> one = List.of(new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:e.yaml"));
    List<EndpointSpec> other = List.of(new EndpointSpec("10.0.0.2", 80, "a", 1, 0, EndpointState.READY, "file:e.yaml"));
    var states = config.desiredStates();

    DesiredState first = states.apply(new java.util.TreeMap<>(Map.of("b", one, "c", one)));
    DesiredState sameClusters = states.apply(new java.util.TreeMap<>(Map.of("b", other, "c", one)));
    DesiredState oneGone = states.apply(new java.util.TreeMap<>(Map.of("b", other)));
    DesiredState renamed = states.apply(new java.util.TreeMap<>(Map.of("b", other, "d", one)));

    assertThat(sameClusters.clusters()).isSameAs(first.clusters());
    assertThat(sameClusters.endpointsOf("b")).isEqualTo(other);
    assertThat(oneGone.clusters()).extracting(ClusterSpec::name).containsExactly("m", "b");
    assertThat(renamed.clusters()).extracting(ClusterSpec::name).containsExactly("m", "b", "d");
    assertThat(renamed.clusters()).isEqualTo(config.desiredState(Map.of("b", other, "d", one)).clusters());
  }

  @Test
  void theEndpointFileSizeLimitIsAPositiveByteCountUpToOneGibibyte() {
    assertThat(ok("sources: { fileMaxBytes: 1048576 }\n").sources().fileMaxBytes()).isEqualTo(1_048_576L);
    assertThat(problems("sources: { fileMaxBytes: 0 }\n")).containsExactly(
            "signalbox.yaml: line 1, column 10: sources: sources.fileMaxBytes must be 1..1073741824, was 0 [parse]");
  }
}
