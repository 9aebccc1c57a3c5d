package io.signalbox.controlplane.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.signalbox.controlplane.Main;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.Access;
import io.signalbox.controlplane.admin.AdminServer;
import io.signalbox.controlplane.cli.OfflineValidation;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.config.TokenSettings;
import io.signalbox.controlplane.config.XdsTlsSettings;
import io.signalbox.controlplane.tls.TestPki;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.StoreSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * What every overlay under {@code deploy/kubernetes/overlays} renders to, held to the code it
 * deploys: the admin server's routes, the CLI's {@code serve}, the config loader and validator.
 */
class KubernetesManifestsTest {

  /** The Secret holding xds.tls's certificate and key (deploy/kubernetes/cert-manager writes it). */
  static final String XDS_TLS_SECRET = "signalbox-xds-tls";

  private static List<AdminServer.Route> adminRoutes;

  @TempDir Path dir;

  static List<String> overlays() {
    return RenderedOverlay.OVERLAYS;
  }

  /** The routes a real admin server registers (memory store, loopback, ephemeral ports). */
  @BeforeAll
  static void startAnAdminServerForItsRoutes(@TempDir Path dir) throws IOException {
    Path config = Files.writeString(dir.resolve("signalbox.yaml"), """
        xds: { port: 0, address: 127.0.0.1 }
        admin: { port: 0, address: 127.0.0.1 }
        store: { url: memory }
        """);
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(config)).value();
    try (SignalboxServer server = SignalboxServer.start(config, cfg,
        new StoreSettings("memory", dir, null, null), Clock.systemUTC())) {
      adminRoutes = server.admin().routes();
    }
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void rendersEveryObjectTheDeploymentNeedsInFabric8sTypedModel(String overlay) {
    RenderedOverlay rendered = RenderedOverlay.of(overlay);

    Set<String> kinds = new TreeSet<>(rendered.objects().stream().map(HasMetadata::getKind).toList());
    // The RBAC objects are KubernetesRbacTest's: Role or ClusterRole is the config's choice.
    assertThat(kinds).contains("Namespace", "ServiceAccount", "ConfigMap", "Deployment", "Service",
        "PodDisruptionBudget");
    String namespace = rendered.deployment().getMetadata().getNamespace();
    assertThat(rendered.objects().stream()
        .filter(o -> !Set.of("Namespace", "ClusterRole", "ClusterRoleBinding").contains(o.getKind()))
        .map(o -> o.getKind() + " " + o.getMetadata().getName() + " in " + o.getMetadata().getNamespace()))
        .allSatisfy(o -> assertThat(o).endsWith(" in " + namespace));
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void runsAsNonRootOnAReadOnlyRootWithNoCapabilitiesAndBoundedResources(String overlay) {
    RenderedOverlay rendered = RenderedOverlay.of(overlay);
    PodSecurityContext pod = rendered.pod().getSecurityContext();
    Container container = rendered.container();
    SecurityContext security = container.getSecurityContext();

    assertThat(pod.getRunAsNonRoot()).isTrue();
    assertThat(pod.getRunAsUser()).isPositive();
    assertThat(pod.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(security.getReadOnlyRootFilesystem()).isTrue();
    assertThat(security.getAllowPrivilegeEscalation()).isFalse();
    assertThat(security.getPrivileged()).isNotEqualTo(Boolean.TRUE);
    assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(security.getCapabilities().getAdd()).isNullOrEmpty();
    assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
    assertThat(container.getResources().getLimits()).containsKeys("cpu", "memory");
    // The image's JVM touches its whole heap at start (-XX:+AlwaysPreTouch, docs/deploy.md): a
    // request below the limit would leave that memory open to eviction under node pressure.
    assertThat(container.getResources().getRequests().get("memory")).as("memory request")
        .isEqualTo(container.getResources().getLimits().get("memory"));
    // The JVM (and the embedded PostgreSQL) write under java.io.tmpdir; the root filesystem is read-only.
    VolumeMount tmp = container.getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/tmp")).findFirst()
        .orElseThrow(() -> new AssertionError(overlay + ": nothing writable is mounted at /tmp"));
    assertThat(rendered.volume(tmp.getName()).getEmptyDir()).isNotNull();
    assertThat(tmp.getReadOnly()).isNotEqualTo(Boolean.TRUE);
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void probesAreUnauthenticatedGetRoutesOfTheAdminServerOnTheConfiguredAdminPort(String overlay) {
    RenderedOverlay rendered = RenderedOverlay.of(overlay);
    Container container = rendered.container();
    SignalboxConfig config = config(rendered);

    assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    for (Probe probe : Stream.of(container.getStartupProbe(), container.getReadinessProbe(),
        container.getLivenessProbe()).toList()) {
      HTTPGetAction get = probe.getHttpGet();
      // The kubelet sends no token: a probe on a route that needs one would never pass.
      assertThat(adminRoutes).as("admin routes").contains(new AdminServer.Route("GET", get.getPath(), Access.PUBLIC));
      assertThat(containerPort(container, get.getPort().getStrVal()).getContainerPort())
          .as("port of the %s probe", get.getPath()).isEqualTo(config.admin().port());
    }
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void servicesSelectThePodsAndReachTheConfiguredXdsAndAdminPorts(String overlay) {
    RenderedOverlay rendered = RenderedOverlay.of(overlay);
    Map<String, String> podLabels = rendered.deployment().getSpec().getTemplate().getMetadata().getLabels();
    SignalboxConfig config = config(rendered);

    assertThat(podLabels).containsAllEntriesOf(rendered.deployment().getSpec().getSelector().getMatchLabels());
    for (Service service : rendered.all(Service.class)) {
      assertThat(service.getSpec().getSelector()).as("selector of %s", service.getMetadata().getName()).isNotEmpty();
      assertThat(podLabels).containsAllEntriesOf(service.getSpec().getSelector());
    }
    ServicePort xds = servicePort(rendered, "signalbox-xds");
    assertThat(xds.getAppProtocol()).isEqualTo("grpc");
    assertThat(containerPort(rendered.container(), xds.getTargetPort().getStrVal()).getContainerPort())
        .isEqualTo(config.xds().port());
    ServicePort admin = servicePort(rendered, "signalbox-admin");
    assertThat(admin.getAppProtocol()).isEqualTo("http");
    assertThat(containerPort(rendered.container(), admin.getTargetPort().getStrVal()).getContainerPort())
        .isEqualTo(config.admin().port());
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void theDisruptionBudgetLetsOneReplicaOfThesePodsGoAtATime(String overlay) {
    RenderedOverlay rendered = RenderedOverlay.of(overlay);
    PodDisruptionBudget budget = rendered.one(PodDisruptionBudget.class);

    assertThat(budget.getSpec().getSelector().getMatchLabels())
        .isEqualTo(rendered.deployment().getSpec().getSelector().getMatchLabels());
    assertThat(budget.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void theContainerArgsParseAsServeOnTheMountedConfigMapKey(String overlay) {
    RenderedOverlay rendered = RenderedOverlay.of(overlay);
    List<String> args = rendered.container().getArgs();

    ParseResult parsed = Main.commandLine().parseArgs(args.toArray(String[]::new));

    assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("serve");
    Path configPath = parsed.subcommand().matchedOptionValue("--config", null);
    assertThat(configPath).isAbsolute();
    rendered.configFile(configPath);
    // Mounted as a directory: a subPath mount would never see the ConfigMap change, and no reload.
    assertThat(rendered.container().getVolumeMounts())
        .filteredOn(m -> m.getMountPath().equals(configPath.getParent().toString()))
        .singleElement().satisfies(m -> assertThat(m.getSubPath()).isNull());
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void everyEnvironmentVariableIsATokenSecretOfTheConfigOrOneThatServeReads(String overlay) {
    RenderedOverlay rendered = RenderedOverlay.of(overlay);
    SignalboxConfig config = config(rendered);
    List<String> tokenSecrets = config.admin().tokens().stream().map(TokenSettings::secretEnv).toList();
    // serve's options document the variables they default to: "Default: env NAME, ...".
    List<String> serveDescriptions = Main.commandLine().getSubcommands().get("serve").getCommandSpec().options()
        .stream().map(OptionSpec::description).flatMap(Stream::of).toList();

    List<EnvVar> env = rendered.container().getEnv();
    assertThat(env.stream().map(EnvVar::getName)).containsAll(tokenSecrets);
    for (EnvVar variable : env) {
      if (!tokenSecrets.contains(variable.getName())) {
        assertThat(serveDescriptions).as("serve options reading %s", variable.getName())
            .anySatisfy(d -> assertThat(d).contains("env " + variable.getName()));
      }
      // Secrets come from Secrets, never from literal values in the manifests.
      assertThat(variable.getValue()).as(variable.getName()).isNull();
      assertThat(variable.getValueFrom().getSecretKeyRef()).as(variable.getName()).isNotNull();
    }
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void theMountedConfigPassesTheValidationServeAppliesAtStartup(String overlay) throws IOException {
    RenderedOverlay rendered = RenderedOverlay.of(overlay);
    RenderedOverlay.ConfigFile mounted = rendered.configFile(configPath(rendered));
    // The pod's TLS Secret, as cert-manager writes it, under a stand-in for the pod's root.
    Path root = dir.resolve("pod");
    XdsTlsSettings tls = config(rendered).xds().tls();
    TestPki.Issued server = TestPki.ca("signalbox-xds-ca").server("signalbox-xds");
    Files.createDirectories(under(root, tls.certFile()).getParent());
    Files.createDirectories(under(root, tls.keyFile()).getParent());
    TestPki.write(under(root, tls.certFile()), TestPki.pem(server.certificate()));
    TestPki.write(under(root, tls.keyFile()), TestPki.pem(server.keys().getPrivate()));
    String text = mounted.text().replace(tls.certFile().getParent() + "/", under(root, tls.certFile()).getParent() + "/");
    Path file = Files.writeString(dir.resolve(mounted.key()), text);

    assertThat(OfflineValidation.problems(file)).as("problems of %s", mounted.configMap()).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void xdsOnEveryInterfaceIsTlsFromTheMountedSecretNeverPlaintext(String overlay) {
    RenderedOverlay rendered = RenderedOverlay.of(overlay);
    SignalboxConfig config = config(rendered);

    assertThat(config.xds().address()).isEqualTo("0.0.0.0");
    XdsTlsSettings tls = config.xds().tls();
    assertThat(tls).as("xds.tls of %s", overlay).isNotNull();
    for (Path file : List.of(tls.certFile(), tls.keyFile())) {
      assertThat(file).isAbsolute();
      Volume volume = mountedAt(rendered, file.getParent());
      assertThat(volume.getSecret()).as("volume %s holding %s", volume.getName(), file).isNotNull();
      assertThat(volume.getSecret().getSecretName()).isEqualTo(XDS_TLS_SECRET);
      // Not optional: a missing Secret keeps the pod from starting instead of serving plaintext.
      assertThat(volume.getSecret().getOptional()).isNotEqualTo(Boolean.TRUE);
    }
  }

  @Test
  void certManagerIssuesTheMountedSecretForTheXdsServiceFromACaOfItsOwn() {
    RenderedOverlay rendered = RenderedOverlay.of("standalone");
    String namespace = rendered.deployment().getMetadata().getNamespace();
    List<JsonNode> issued = RenderedOverlay.documents(RenderedOverlay.KUBERNETES.resolve("cert-manager"));
    Map<String, JsonNode> issuers = byName(issued, "Issuer");
    Map<String, JsonNode> certificates = byName(issued, "Certificate");

    assertThat(issued).allSatisfy(o -> assertThat(o.at("/metadata/namespace").asText()).isEqualTo(namespace));
    JsonNode serving = certificates.values().stream()
        .filter(c -> c.at("/spec/secretName").asText().equals(XDS_TLS_SECRET)).findFirst()
        .orElseThrow(() -> new AssertionError("no Certificate writes the Secret " + XDS_TLS_SECRET));
    List<String> dnsNames = new java.util.ArrayList<>();
    serving.at("/spec/dnsNames").forEach(n -> dnsNames.add(n.asText()));
    assertThat(dnsNames).contains("signalbox-xds." + namespace + ".svc");
    assertThat(rendered.named(Service.class, "signalbox-xds")).isNotNull();
    // Every issuerRef resolves inside the kustomization, down to a self-signed root, and a CA
    // issuer's key pair is a CA certificate's Secret.
    JsonNode issuer = issuers.get(serving.at("/spec/issuerRef/name").asText());
    assertThat(issuer).as("issuer of %s", serving.at("/metadata/name").asText()).isNotNull();
    String caSecret = issuer.at("/spec/ca/secretName").asText();
    JsonNode ca = certificates.values().stream().filter(c -> c.at("/spec/secretName").asText().equals(caSecret))
        .findFirst().orElseThrow(() -> new AssertionError("no Certificate writes the CA Secret " + caSecret));
    assertThat(ca.at("/spec/isCA").asBoolean()).isTrue();
    assertThat(issuers.get(ca.at("/spec/issuerRef/name").asText()).at("/spec/selfSigned").isObject()).isTrue();
  }

  private static Map<String, JsonNode> byName(List<JsonNode> objects, String kind) {
    Map<String, JsonNode> named = new java.util.HashMap<>();
    objects.stream().filter(o -> o.path("kind").asText().equals(kind))
        .forEach(o -> named.put(o.at("/metadata/name").asText(), o));
    return named;
  }

  private static Volume mountedAt(RenderedOverlay rendered, Path dir) {
    VolumeMount mount = rendered.container().getVolumeMounts().stream()
        .filter(m -> Path.of(m.getMountPath()).equals(dir)).findFirst()
        .orElseThrow(() -> new AssertionError(rendered.name() + ": nothing is mounted at " + dir));
    assertThat(mount.getReadOnly()).as("mount at %s read-only", dir).isTrue();
    return rendered.volume(mount.getName());
  }

  private static Path under(Path root, Path absolute) {
    return root.resolve(absolute.toString().substring(1));
  }

  static Path configPath(RenderedOverlay rendered) {
    ParseResult parsed = Main.commandLine().parseArgs(rendered.container().getArgs().toArray(String[]::new));
    return parsed.subcommand().matchedOptionValue("--config", null);
  }

  /** The overlay's mounted config as the loader reads it. */
  SignalboxConfig config(RenderedOverlay rendered) {
    try {
      return DeployedConfig.of(rendered.configFile(configPath(rendered)),
          Files.createTempDirectory(dir, "config")).config();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static ContainerPort containerPort(Container container, String name) {
    return container.getPorts().stream().filter(p -> name.equals(p.getName())).findFirst()
        .orElseThrow(() -> new AssertionError("container " + container.getName() + " has no port named " + name));
  }

  private static ServicePort servicePort(RenderedOverlay rendered, String service) {
    List<ServicePort> ports = rendered.named(Service.class, service).getSpec().getPorts();
    assertThat(ports).as("ports of Service %s", service).hasSize(1);
    return ports.get(0);
  }
}
