package io.signalbox.controlplane.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.signalbox.controlplane.config.KubernetesSettings;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.source.kubernetes.KubernetesEndpointSource;
import io.signalbox.source.kubernetes.KubernetesSourceSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The RBAC rules each overlay grants its service account are exactly what the EndpointSlice source
 * calls, as configured in the overlay's own ConfigMap. What it calls is not written down here: the
 * source runs against fabric8's mock API server (CRUD mode), and every request it makes is turned
 * into the verb, group, resource and namespace the API server's authorizer would check.
 */
class KubernetesRbacTest {

  @TempDir Path dir;

  static List<String> overlays() {
    return RenderedOverlay.OVERLAYS;
  }

  /** What one binding lets the service account do; {@code namespace} empty: in every namespace. */
  record Grant(String verb, String apiGroup, String resource, String namespace, String from) {
    boolean allows(ApiCall call) {
      return verb.equals(call.verb()) && apiGroup.equals(call.apiGroup()) && resource.equals(call.resource())
          && (namespace.isEmpty() || namespace.equals(call.namespace()));
    }
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void theServiceAccountMayMakeExactlyTheCallsTheConfiguredKubernetesSourceMakes(String overlay) throws IOException {
    RenderedOverlay rendered = RenderedOverlay.of(overlay);
    KubernetesSettings configured = DeployedConfig.of(
        rendered.configFile(KubernetesManifestsTest.configPath(rendered)), dir).config().sources().kubernetes();
    assertThat(configured.enabled()).as("sources.kubernetes.enabled in %s", overlay).isTrue();

    SortedSet<ApiCall> calls = callsOf(configured.toSourceSettings());
    List<Grant> grants = grantsTo(rendered);

    assertThat(calls).as("requests the source made").isNotEmpty();
    SoftAssertions.assertSoftly(softly -> {
      softly.assertThat(calls.stream().filter(c -> grants.stream().noneMatch(g -> g.allows(c))))
          .as("requests of the source that %s's RBAC refuses", overlay).isEmpty();
      softly.assertThat(grants.stream().filter(g -> calls.stream().noneMatch(g::allows)))
          .as("grants in %s that the source never uses", overlay).isEmpty();
    });
  }

  @Test
  void theDeployDocListsWhatTheSourceCallsForEveryResource() throws IOException {
    RenderedOverlay rendered = RenderedOverlay.of("standalone");
    KubernetesSettings configured = DeployedConfig.of(
        rendered.configFile(KubernetesManifestsTest.configPath(rendered)), dir).config().sources().kubernetes();
    Map<String, SortedSet<String>> used = new TreeMap<>();
    for (ApiCall call : callsOf(configured.toSourceSettings())) {
      used.computeIfAbsent(row(call.apiGroup(), call.resource()), k -> new TreeSet<>()).add(call.verb());
    }

    Map<String, SortedSet<String>> documented = new TreeMap<>();
    Matcher rows = Pattern.compile("(?m)^\\| (core|`[^`]+`) \\| `([^`]+)` \\| ([a-z, ]+) \\|$")
        .matcher(Files.readString(Path.of("..", "docs", "deploy.md")));
    while (rows.find()) {
      String group = rows.group(1).equals("core") ? "" : rows.group(1).replace("`", "");
      documented.put(row(group, rows.group(2)), new TreeSet<>(List.of(rows.group(3).split(",\\s*"))));
    }

    assertThat(documented).as("the RBAC table of docs/deploy.md").isEqualTo(used);
  }

  private static String row(String group, String resource) {
    return (group.isEmpty() ? "core" : group) + " " + resource;
  }

  /** Runs the source with the configured watch scope against a mock API server until it is FRESH. */
  static SortedSet<ApiCall> callsOf(KubernetesSourceSettings configured) {
    KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
        new KubernetesCrudDispatcher(), false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    try {
      KubernetesSourceSettings settings = new KubernetesSourceSettings(configured.namespaces(),
          configured.labelSelector(), configured.clusterNames(),
          new KubernetesSourceSettings.Connection.MasterUrl("http://127.0.0.1:" + server.getPort()),
          configured.timing());
      List<SourceState> states = new CopyOnWriteArrayList<>();
      // FRESH is published once every informer has listed and is watching, after the first
      // reachability probe: by then the source has made every kind of request it makes.
      try (KubernetesEndpointSource source = new KubernetesEndpointSource(settings)) {
        source.start(states::add);
        await().atMost(Duration.ofSeconds(30))
            .until(() -> states.stream().anyMatch(s -> s.health() == SourceHealth.FRESH));
      }
      SortedSet<ApiCall> calls = new TreeSet<>();
      for (RecordedRequest r = take(server); r != null; r = take(server)) {
        calls.add(ApiCall.of(r.getMethod(), r.getPath()));
      }
      return calls;
    } finally {
      server.destroy();
    }
  }

  private static RecordedRequest take(KubernetesMockServer server) {
    try {
      return server.takeRequest(200, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Every permission the Deployment's service account holds through the overlay's bindings. */
  static List<Grant> grantsTo(RenderedOverlay rendered) {
    String account = rendered.pod().getServiceAccountName() == null ? "default" : rendered.pod().getServiceAccountName();
    String namespace = rendered.deployment().getMetadata().getNamespace();
    assertThat(rendered.all(io.fabric8.kubernetes.api.model.ServiceAccount.class))
        .anySatisfy(sa -> assertThat(sa.getMetadata().getName()).isEqualTo(account));
    List<Grant> grants = new ArrayList<>();
    for (ClusterRoleBinding binding : rendered.all(ClusterRoleBinding.class)) {
      if (names(binding.getSubjects(), account, namespace)) {
        grants.addAll(grants(rendered, binding.getRoleRef(), "", "ClusterRoleBinding " + binding.getMetadata().getName()));
      }
    }
    for (RoleBinding binding : rendered.all(RoleBinding.class)) {
      if (names(binding.getSubjects(), account, namespace)) {
        grants.addAll(grants(rendered, binding.getRoleRef(), binding.getMetadata().getNamespace(),
            "RoleBinding " + binding.getMetadata().getName()));
      }
    }
    return grants;
  }

  private static boolean names(List<Subject> subjects, String account, String namespace) {
    return subjects.stream().anyMatch(s -> "ServiceAccount".equals(s.getKind()) && account.equals(s.getName())
        && namespace.equals(s.getNamespace()));
  }

  private static List<Grant> grants(RenderedOverlay rendered, RoleRef ref, String namespace, String binding) {
    List<PolicyRule> rules = switch (ref.getKind()) {
      case "ClusterRole" -> rendered.named(ClusterRole.class, ref.getName()).getRules();
      case "Role" -> rendered.all(Role.class).stream()
          .filter(r -> r.getMetadata().getName().equals(ref.getName()) && r.getMetadata().getNamespace().equals(namespace))
          .findFirst().orElseThrow(() -> new AssertionError(binding + " refers to a missing Role " + ref.getName()))
          .getRules();
      default -> throw new AssertionError(binding + " refers to a " + ref.getKind());
    };
    List<Grant> grants = new ArrayList<>();
    for (PolicyRule rule : rules) {
      String from = binding + " -> " + ref.getKind() + " " + ref.getName();
      assertThat(rule.getNonResourceURLs()).as("non-resource URLs granted by %s", from).isNullOrEmpty();
      assertThat(rule.getResourceNames()).as("resourceNames of %s: list and watch ignore them", from).isNullOrEmpty();
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          for (String verb : rule.getVerbs()) {
            // A wildcard grants whatever the API server adds later: never exactly what the source uses.
            assertThat(List.of(group, resource, verb)).as("a rule of %s", from).doesNotContain("*");
            grants.add(new Grant(verb, group, resource, namespace, from));
          }
        }
      }
    }
    return grants;
  }
}
