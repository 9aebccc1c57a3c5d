package io.signalbox.controlplane.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.signalbox.controlplane.JvmSettings;
import io.signalbox.controlplane.Main;
import io.signalbox.controlplane.config.AdminSettings;
import io.signalbox.controlplane.config.XdsSettings;
import io.signalbox.controlplane.deploy.Dockerfile.Instruction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.ParseResult;

/**
 * {@code deploy/Dockerfile} cannot be built here (no Docker engine), so what the deployment relies
 * on is read from it: the user, the jar, the command and which flavour carries PostgreSQL.
 */
class DockerfileTest {

  private final Dockerfile dockerfile = Dockerfile.read();

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "external"})
  void eachFlavourRunsAsAnUnprivilegedNumericUserThatTheImageCreates(String flavour) {
    String user = dockerfile.effective(flavour, "USER").map(Instruction::arguments)
        .orElseThrow(() -> new AssertionError(flavour + " runs as root: no USER"));

    // Numeric, so that the kubelet can check runAsNonRoot without reading the image's /etc/passwd.
    assertThat(user).matches("[0-9]+:[0-9]+");
    int uid = Integer.parseInt(user.split(":")[0]);
    assertThat(uid).isPositive();
    assertThat(dockerfile.lineage(flavour)).as("instructions of %s", flavour).anySatisfy(i -> {
      assertThat(i.keyword()).isEqualTo("RUN");
      assertThat(i.arguments()).contains("useradd").contains("--uid " + uid);
    });
    assertThat(baseDeployment().getSpec().getTemplate().getSpec().getSecurityContext().getRunAsUser())
        .as("runAsUser in deploy/kubernetes/base/deployment.yaml").isEqualTo(uid);
  }

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "external"})
  void eachFlavourRunsTheShadedJarThatItsMavenStageBuilds(String flavour) throws IOException {
    List<String> entrypoint = dockerfile.effective(flavour, "ENTRYPOINT").orElseThrow().execForm();
    assertThat(entrypoint).hasSize(3).startsWith("java", "-jar");
    String jar = entrypoint.get(2);

    Instruction copy = dockerfile.stage(flavour).all("COPY").stream()
        .filter(c -> c.arguments().endsWith(" " + jar)).findFirst()
        .orElseThrow(() -> new AssertionError(flavour + " copies nothing to " + jar));
    Matcher from = Pattern.compile("--from=(\\S+) (\\S+) (\\S+)").matcher(copy.arguments());
    assertThat(from.matches()).as(copy.arguments()).isTrue();
    assertThat(from.group(2)).endsWith("/control-plane/target/" + shadedJarName() + ".jar");
    assertThat(dockerfile.lineage(from.group(1))).anySatisfy(i -> {
      assertThat(i.keyword()).isEqualTo("RUN");
      assertThat(i.arguments()).contains("mvn ").contains("-pl control-plane -am").endsWith(" package");
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "external"})
  void eachFlavourStartsTheJvmWithTheOptionsSignalboxIsMeasuredWith(String flavour) {
    String env = dockerfile.effective(flavour, "ENV").map(Instruction::arguments)
        .orElseThrow(() -> new AssertionError(flavour + " sets no ENV"));
    Matcher options = Pattern.compile("JDK_JAVA_OPTIONS=\"([^\"]*)\"").matcher(env);

    assertThat(options.find()).as("JDK_JAVA_OPTIONS in %s", env).isTrue();
    List<String> given = List.of(options.group(1).trim().split("\\s+"));
    assertThat(given).as("JDK_JAVA_OPTIONS of %s", flavour).containsAll(JvmSettings.RECOMMENDED);
    // -XX:+AlwaysPreTouch touches the initial heap only: it must be the maximum.
    String max = given.stream().filter(o -> o.startsWith("-XX:MaxRAMPercentage=")).findFirst()
        .orElseThrow(() -> new AssertionError("no -XX:MaxRAMPercentage= in " + given));
    assertThat(given).contains(max.replace("Max", "Initial"));
  }

  @Test
  void onlyTheExternalFlavourBuildsItsJarWithoutPostgresBinaries() throws IOException {
    Matcher activation = Pattern.compile("<name>([^<]+)</name>\\s*<value>!none</value>")
        .matcher(Files.readString(Path.of("..", "snapshot-store", "pom.xml")));
    assertThat(activation.find()).as("the profile adding PostgreSQL binaries unless ...=none").isTrue();
    String none = "-D" + activation.group(1) + "=none";

    assertThat(mavenRun("build-external")).contains(none);
    assertThat(mavenRun("build-embedded")).doesNotContain(none);
    assertThat(dockerfile.stage("embedded").all("COPY")).singleElement()
        .satisfies(c -> assertThat(c.arguments()).startsWith("--from=build-embedded "));
    assertThat(dockerfile.stage("external").all("COPY")).singleElement()
        .satisfies(c -> assertThat(c.arguments()).startsWith("--from=build-external "));
  }

  @Test
  void theDefaultCommandIsServeOnTheConfigTheDeploymentMountsAndThePortsAreTheDefaults() {
    List<String> command = dockerfile.effective("embedded", "CMD").orElseThrow().execForm();
    ParseResult parsed = Main.commandLine().parseArgs(command.toArray(String[]::new));

    assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("serve");
    assertThat(command).isEqualTo(baseDeployment().getSpec().getTemplate().getSpec().getContainers().get(0).getArgs());
    assertThat(dockerfile.effective("embedded", "EXPOSE").orElseThrow().arguments().split(" "))
        .containsExactlyInAnyOrder(String.valueOf(XdsSettings.DEFAULT_PORT), String.valueOf(AdminSettings.DEFAULT_PORT));
  }

  private String mavenRun(String stage) {
    return dockerfile.stage(stage).all("RUN").stream().map(Instruction::arguments)
        .filter(a -> a.contains("mvn ")).findFirst()
        .orElseThrow(() -> new AssertionError(stage + " runs no Maven build"));
  }

  /** The shade plugin's {@code finalName} in control-plane/pom.xml. */
  private static String shadedJarName() throws IOException {
    Matcher m = Pattern.compile("<finalName>([^<]+)</finalName>").matcher(Files.readString(Path.of("pom.xml")));
    assertThat(m.find()).as("finalName in control-plane/pom.xml").isTrue();
    return m.group(1);
  }

  private static Deployment baseDeployment() {
    try {
      return new KubernetesSerialization().unmarshal(
          Files.readString(RenderedOverlay.KUBERNETES.resolve("base").resolve("deployment.yaml")), Deployment.class);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
