package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.demo.XdsClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code signalbox plan} against a running server with three grpc-xds clients (grpc-java's own xDS
 * client, a node each: {@code web-1} and {@code web-2} in group {@code web}, {@code batch-1} in
 * {@code batch}), each part of the answer, and predictions checked by applying what was planned: a
 * planned change arrives with the diff the plan showed; a planned mass removal is held, the served
 * epoch stays and {@code status} shows the hold the plan named. Every test leaves the server as it
 * found it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PlanIT {

  @TempDir static Path dir;
  @TempDir static Path elsewhere;
  static RunningSignalbox sb;
  static XdsClients clients;

  @BeforeAll
  static void start() {
    sb = RunningSignalbox.start(dir, 4, "", "");
    clients = XdsClients.start(sb.server.xdsPort(), "greeter", List.of(new XdsClients.Node("web-1", "web", "a"),
        new XdsClients.Node("web-2", "web", "a"), new XdsClients.Node("batch-1", "batch", "a")), Duration.ofSeconds(1));
    await().atMost(Duration.ofSeconds(60)).until(() -> sb.server.xds().clients().stream()
        .filter(c -> c.epoch() >= sb.epoch()).count() == 3);
  }

  @AfterAll
  static void stop() throws Exception {
    if (clients != null) {
      clients.close();
    }
    if (sb != null) {
      sb.close();
    }
  }

  /** {@code endpoints.yaml} of {@code count} endpoints, the last of weight {@code lastWeight}. */
  static String endpoints(int count, int lastWeight) {
    return RunningSignalbox.endpoints(count).replace("port: " + (50000 + count) + ", zone: a }",
        "port: " + (50000 + count) + ", zone: a, weight: " + lastWeight + " }");
  }

  static Cli.Run plan(String... args) {
    return Cli.against(sb, prepend("plan", args));
  }

  static String[] prepend(String first, String... rest) {
    List<String> all = new ArrayList<>(List.of(first));
    all.addAll(List.of(rest));
    return all.toArray(String[]::new);
  }

  @Test
  @Order(1)
  void theServersOwnDirectoryIsNoChangeAndExits0() {
    Cli.Run run = plan("--config", dir.toString());

    assertThat(run.exit()).as(run.out() + run.err()).isZero();
    assertThat(run.outLines()).containsExactly("plan against epoch " + sb.epoch() + ": no change");
  }

  @Test
  @Order(2)
  void invalidInputsExit2WithEveryViolationAsValidatePrintsThemAndChangeNothing() throws Exception {
    long epoch = sb.epoch();
    Files.writeString(elsewhere.resolve("signalbox.yaml"), Files.readString(dir.resolve("signalbox.yaml")));
    Files.writeString(elsewhere.resolve("endpoints.yaml"), """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: 70000 }
            - { address: 127.0.0.1, port: 70000 }
        """);

    Cli.Run plan = plan("--config", elsewhere.resolve("signalbox.yaml").toString());
    Cli.Run validate = Cli.run("validate", "--config", elsewhere.resolve("signalbox.yaml").toString());

    assertThat(plan.exit()).isEqualTo(2);
    assertThat(validate.exit()).isEqualTo(2);
    assertThat(plan.errLines()).hasSize(3).containsExactlyElementsOf(validate.errLines());
    assertThat(plan.outLines()).containsExactly("plan against epoch " + epoch + ": invalid, 3 problems");
    assertThat(sb.epoch()).isEqualTo(epoch);
  }

  @Test
  @Order(3)
  void aPlannedChangeArrivesWithTheDiffThePlanShowedToTheClientsItNamed() throws Exception {
    long before = sb.epoch();
    Path changed = Files.writeString(elsewhere.resolve("endpoints.yaml"), endpoints(4, 5));

    Cli.Run run = plan("--endpoints", changed.toString());
    JsonNode json = Json.read(plan("--endpoints", changed.toString(), "--output", "json").out(), () -> "json");

    assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(4);
    assertThat(run.outLines()).containsExactly(
        "plan against epoch " + before + ": 0 added, 0 removed, 1 changed",
        "~ ENDPOINT/greeter 127.0.0.1:50004 weight 1 -> 5",
        "sent to: ENDPOINT/greeter (changed): 3 clients; groups batch 1, web 2; waves " + wave() + " 3",
        // Weights that differ for the first time: grpc-java's round robin treats endpoints alike.
        "clients: endpoints of cluster 'greeter': endpoint weights: 3 grpc-java clients will ignore them (grpc-java: "
            + "round robin and least request treat endpoints alike; ring hash uses them) [client.ignored] (warning)");
    assertThat(json.path("exitCode").asInt()).isEqualTo(4);
    assertThat(json.path("recipients").path(0).path("clients").asInt()).isEqualTo(3);
    assertThat(json.path("holds")).isEmpty();
    assertThat(sb.epoch()).as("a plan publishes nothing").isEqualTo(before);

    RunningSignalbox.write(dir, "endpoints.yaml", endpoints(4, 5));
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.epoch() > before);
    JsonNode applied = Json.read(Cli.against(sb, "diff", Long.toString(before), Long.toString(sb.epoch()), "--output",
        "json").out(), () -> "json");
    assertThat(applied.path("fields")).isEqualTo(json.path("diff").path("fields"));
    assertThat(applied.path("changed")).isEqualTo(json.path("diff").path("changed"));
    await().atMost(Duration.ofSeconds(30)).until(() -> sb.server.xds().clients().stream()
        .filter(c -> c.epoch() >= sb.epoch()).count() == 3);
  }

  @Test
  @Order(4)
  void aPlannedMassRemovalIsHeldWhenAppliedAsThePlanSaid() throws Exception {
    long before = sb.epoch();
    Path one = Files.writeString(elsewhere.resolve("endpoints.yaml"), endpoints(1, 1));

    JsonNode json = Json.read(plan("--endpoints", one.toString(), "--output", "json").out(), () -> "json");
    Cli.Run run = plan("--endpoints", one.toString());

    assertThat(run.exit()).isEqualTo(4);
    JsonNode hold = json.path("holds").path(0);
    assertThat(hold.path("rule").asText()).isEqualTo("guard.mass-removal");
    assertThat(hold.path("cluster").asText()).isEqualTo("greeter");
    String message = "cluster 'greeter': one update takes 3 of 4 eligible endpoints out (75%), more than "
        + "massRemovalPercent 50";
    assertThat(hold.path("message").asText()).isEqualTo(message);
    assertThat(run.outLines()).contains("held: " + message + " [guard.mass-removal]; 'signalbox confirm greeter' lets "
        + "it through, or the update staying the same for reconcile.holdStable");
    // Once released, the three would drain first: the diff and the capacity say so.
    assertThat(json.path("diff").path("endpoints").findValuesAsText("to")).containsOnly("DRAINING");
    assertThat(run.outLines()).anyMatch(l -> l.startsWith("capacity: greeter: eligible 4 endpoints (capacity unknown)"
        + " -> 1 endpoint (capacity unknown)") && l.endsWith("; drains started: 127.0.0.1:50002, 127.0.0.1:50003, "
        + "127.0.0.1:50004"));

    // The plan held nothing itself: the writer's guards are untouched until the file changes.
    assertThat(sb.server.reconciler().view().held()).isEmpty();
    assertThat(sb.server.store().auditLog(100)).noneMatch(a -> a.action().contains("plan"));

    RunningSignalbox.write(dir, "endpoints.yaml", endpoints(1, 1));
    await().atMost(Duration.ofSeconds(10)).until(() -> !sb.server.reconciler().view().held().isEmpty());
    assertThat(sb.epoch()).as("held: the served epoch stays").isEqualTo(before);
    JsonNode status = Json.read(Cli.against(sb, "status", "--output", "json").out(), () -> "json");
    assertThat(status.path("holds").findValuesAsText("message")).contains(message);
    assertThat(Cli.against(sb, "status").outLines()).anyMatch(l -> l.contains(message));

    RunningSignalbox.write(dir, "endpoints.yaml", endpoints(4, 5));
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.server.reconciler().view().held().isEmpty());
    assertThat(sb.epoch()).isEqualTo(before);
  }

  @Test
  @Order(5)
  void aSettingAConnectedClientKindRefusesIsNamedWithItsCount() throws Exception {
    Path config = Files.writeString(elsewhere.resolve("signalbox.yaml"),
        Files.readString(dir.resolve("signalbox.yaml")).replace("lbPolicy: ROUND_ROBIN", "lbPolicy: MAGLEV"));
    Files.writeString(elsewhere.resolve("endpoints.yaml"), endpoints(4, 5));

    Cli.Run run = plan("--config", config.toString());

    assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(4);
    assertThat(run.outLines()).contains("~ CLUSTER/greeter lb_policy ROUND_ROBIN -> MAGLEV",
        "sent to: CLUSTER/greeter (changed): 3 clients; groups batch 1, web 2; waves " + wave() + " 3",
        "clients: cluster 'greeter': lbPolicy MAGLEV: 3 grpc-java clients will NACK it [client.rejected] (warning)");
  }

  @Test
  @Order(6)
  void aPlannedConfigRemovalIsHeldByTheConfigGuard() throws Exception {
    String config = Files.readString(dir.resolve("signalbox.yaml"));
    Path emptied = Files.writeString(elsewhere.resolve("signalbox.yaml"), config.substring(0, config.indexOf("listeners:"))
        + "clusters:\n  - name: greeter\n");
    Files.writeString(elsewhere.resolve("endpoints.yaml"), endpoints(4, 5));

    JsonNode json = Json.read(plan("--config", emptied.toString(), "--output", "json").out(), () -> "json");

    assertThat(json.path("exitCode").asInt()).isEqualTo(4);
    assertThat(json.path("holds").path(0).path("rule").asText()).isEqualTo("guard.config-removal");
    assertThat(json.path("holds").path(0).path("message").asText()).contains("removes every listener, 1 of 1 (greeter)");
    assertThat(json.path("holds").path(0).path("releasedBy").asText()).startsWith("'signalbox confirm --config'");
    assertThat(json.path("diff").path("removed").toString()).contains("LISTENER/greeter", "ROUTE/greeter");
  }

  @Test
  @Order(7)
  void aFreezeIsTheFirstHoldAndUnfreezeReleasesIt() throws Exception {
    assertThat(Cli.against(sb, "freeze", "--reason", "incident 7").exit()).isZero();
    try {
      Path changed = Files.writeString(elsewhere.resolve("endpoints.yaml"), endpoints(4, 7));

      JsonNode json = Json.read(plan("--endpoints", changed.toString(), "--output", "json").out(), () -> "json");

      assertThat(json.path("exitCode").asInt()).isEqualTo(4);
      assertThat(json.path("holds").path(0).path("rule").asText()).isEqualTo("freeze");
      assertThat(json.path("holds").path(0).path("message").asText())
          .isEqualTo("publishing is frozen by anonymous (incident 7): the change would be validated, not published");
      assertThat(json.path("holds").path(0).path("releasedBy").asText())
          .isEqualTo("'signalbox unfreeze' publishes what the inputs say now");
    } finally {
      assertThat(Cli.against(sb, "unfreeze").exit()).isZero();
    }
  }

  /** The wave a client is in without rollout waves. */
  static String wave() {
    return sb.server.xds().clients().get(0).wave();
  }
}
