package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.Main;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The operator's admission actions end to end (issue 31), driven through the CLI against a
 * Signalbox with three real backends and grpc-java's own xDS client: {@code shed --percent 50}
 * makes about half the calls fail UNAVAILABLE "Dropped: ...", {@code unshed} ends it, and while
 * ejections are frozen an ejection the endpoint source asks for is held (shown in status), not
 * published, while an operator's {@code eject} still applies.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorSheddingIT {

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    backends = Backends.start("b1", "b2", "b3");
    int xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", endpoints("READY", "READY", "READY"));
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN"));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-shed");
    channel = client.channel("greeter");
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> call() != null);
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  private static String endpoints(String s1, String s2, String s3) {
    StringBuilder out = new StringBuilder("clusters:\n  greeter:\n");
    String[] states = {s1, s2, s3};
    for (int i = 0; i < 3; i++) {
      out.append("    - { address: 127.0.0.1, port: ").append(backends.port("b" + (i + 1)))
          .append(", zone: a, state: ").append(states[i]).append(" }\n");
    }
    return out.toString();
  }

  private static String call() {
    return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  /** The description of each call that failed, out of {@code n}. */
  private static List<String> failures(int n) {
    List<String> failed = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      try {
        call();
      } catch (StatusRuntimeException e) {
        failed.add(e.getStatus().getCode() + ": " + e.getStatus().getDescription());
      }
    }
    return failed;
  }

  /** Runs the CLI against the server; its exit code and what it printed. */
  private static String cli(String... args) {
    List<String> argv = new ArrayList<>(List.of(args));
    argv.addAll(List.of("--server", "http://127.0.0.1:" + server.adminPort()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(argv.toArray(String[]::new));
    assertThat(exit).as("signalbox %s: %s", String.join(" ", args), err).isZero();
    return out.toString();
  }

  private static ClusterLoadAssignment served() throws Exception {
    Snapshot s = server.reconciler().view().snapshot();
    XdsResource r = s.resources(XdsType.ENDPOINT).get("greeter");
    return r.content(ClusterLoadAssignment.class);
  }

  private static long ackedEndpointsEpoch() {
    return server.xds().clients().stream().filter(c -> c.nodeId().equals("grpc-shed"))
        .mapToLong(c -> {
          var t = c.types().get(XdsType.ENDPOINT.typeUrl());
          return t == null ? 0 : t.syncedEpoch();
        }).max().orElse(0);
  }

  /** Waits until the grpc-xds client holds the newest epoch. */
  private static void clientHoldsTheNewestEpoch() {
    long epoch = server.reconciler().status().epoch();
    await().atMost(Duration.ofSeconds(30)).until(() -> ackedEndpointsEpoch() >= epoch);
  }

  @Test
  @Order(1)
  void shedHalfDropsAboutHalfTheCallsAndUnshedEndsIt() throws Exception {
    assertThat(failures(50)).isEmpty();

    String said = cli("shed", "greeter", "--percent", "50", "--reason", "load test");

    assertThat(said).isEqualTo("shedding: clients of greeter drop 50% of calls as signalbox_operator, until "
        + "'signalbox unshed greeter'\n");
    await().atMost(Duration.ofSeconds(30)).until(() -> served().getPolicy().getDropOverloadsCount() == 1);
    var drop = served().getPolicy().getDropOverloads(0);
    assertThat(drop.getCategory()).isEqualTo("signalbox_operator");
    assertThat(drop.getDropPercentage().getNumerator()).isEqualTo(500_000);
    clientHoldsTheNewestEpoch();
    List<String> failed = failures(300);
    System.out.printf("shed --percent 50: %d of 300 calls dropped%n", failed.size());
    assertThat(failed).allMatch(f -> f.equals(Status.Code.UNAVAILABLE + ": Dropped: signalbox_operator"));
    assertThat(failed.size()).isBetween(105, 195);
    assertThat(cli("status")).contains("greeter drops 50% as signalbox_operator (by anonymous: load test)");

    assertThat(cli("unshed", "greeter")).isEqualTo("unshed: clients of greeter drop no calls for the operator any "
        + "more (1 lifted)\n");
    await().atMost(Duration.ofSeconds(30)).until(() -> served().getPolicy().getDropOverloadsCount() == 0);
    clientHoldsTheNewestEpoch();
    assertThat(failures(100)).isEmpty();
  }

  @Test
  @Order(2)
  void whileEjectionsAreFrozenASourcesEjectionIsHeldAndAnOperatorsStillApplies() throws Exception {
    long before = server.reconciler().status().epoch();
    assertThat(cli("freeze-ejections", "--reason", "incident 12")).isEqualTo("ejections frozen: none a source asks "
        + "for is published until 'signalbox unfreeze-ejections'\n");
    String b3 = "greeter/127.0.0.1:" + backends.port("b3");

    // A policy (here: whoever writes the endpoint file) ejects b3.
    ws.write("endpoints.yaml", endpoints("READY", "READY", "EJECTED"));

    await().atMost(Duration.ofSeconds(30)).until(() -> server.reconciler().status().heldEjections().containsKey(b3));
    assertThat(server.reconciler().status().heldEjections().get(b3)).isEqualTo("ejection held: ejections frozen by "
        + "anonymous: incident 12; served READY until 'signalbox unfreeze-ejections'");
    assertThat(server.reconciler().status().epoch()).isEqualTo(before);
    assertThat(server.reconciler().view().snapshot().endpoints().get("greeter")).extracting(EndpointSpec::state)
        .containsOnly(EndpointState.READY);
    assertThat(cli("status")).contains("yes, by anonymous: incident 12")
        .contains(b3 + ": ejection held");
    assertThat(cli("why", "greeter", "127.0.0.1:" + backends.port("b3"))).contains("ejection held: ejections frozen "
        + "by anonymous: incident 12");

    // An operator's eject is a decision made with the freeze in view: it applies, and says so.
    String ejected = cli("eject", "greeter", "127.0.0.1:" + backends.port("b1"), "--reason", "bad disk");
    assertThat(ejected).contains("ejections are frozen (by anonymous); an operator's eject still applies");
    await().atMost(Duration.ofSeconds(30)).until(() -> server.reconciler().view().snapshot().endpoints().get("greeter")
        .stream().anyMatch(e -> e.port() == backends.port("b1") && e.state() == EndpointState.EJECTED));

    assertThat(cli("unfreeze-ejections")).isEqualTo("ejections unfrozen: held ejections are published\n");
    await().atMost(Duration.ofSeconds(30)).until(() -> server.reconciler().view().snapshot().endpoints().get("greeter")
        .stream().anyMatch(e -> e.port() == backends.port("b3") && e.state() == EndpointState.EJECTED));
    assertThat(server.reconciler().status().heldEjections()).isEmpty();
  }
}
