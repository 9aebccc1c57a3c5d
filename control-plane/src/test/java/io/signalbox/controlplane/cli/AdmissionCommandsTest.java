package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** shed, unshed, freeze-ejections and unfreeze-ejections against a whole Signalbox (issue 31). */
class AdmissionCommandsTest {

  @TempDir Path dir;
  RunningSignalbox sb;

  @BeforeEach
  void start() {
    sb = RunningSignalbox.start(dir, 3, "", "");
  }

  @AfterEach
  void stop() {
    sb.close();
  }

  private List<ClusterLoadAssignment.Policy.DropOverload> servedDrops() throws Exception {
    XdsResource r = sb.server.reconciler().view().snapshot().resources(XdsType.ENDPOINT).get("greeter");
    ClusterLoadAssignment cla = r.content(ClusterLoadAssignment.class);
    return cla.getPolicy().getDropOverloadsList();
  }

  private JsonNode status() throws Exception {
    return new ObjectMapper().readTree(Cli.against(sb, "status", "-o", "json").out());
  }

  @Test
  void severalCategoriesAreSentInTheOrderFirstSetAndTheAnswerSaysWhatEnvoyGets() throws Exception {
    Cli.Run first = Cli.against(sb, "shed", "greeter", "--percent", "12.5", "--category", "batch");
    Cli.Run second = Cli.against(sb, "shed", "greeter", "--percent", "30", "--reason", "zone b is down");

    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out()).isEqualTo("shedding: clients of greeter drop 12.5% of calls as batch, until "
        + "'signalbox unshed greeter'\n");
    assertThat(second.out()).isEqualTo("shedding: clients of greeter drop 30% of calls as signalbox_operator, until "
        + "'signalbox unshed greeter'\ngRPC clients apply all 2 categories in order; Envoy honours one, so Envoy "
        + "clients are sent the larger alone (30% as signalbox_operator) (docs/traffic-policy.md, \"Dropping "
        + "calls\")\n");
    await().atMost(Duration.ofSeconds(10)).until(() -> servedDrops().size() == 2);
    assertThat(servedDrops()).extracting(d -> d.getCategory() + " " + d.getDropPercentage().getNumerator() + "/"
        + d.getDropPercentage().getDenominator()).containsExactly("batch 125000/MILLION",
        "signalbox_operator 300000/MILLION");
    assertThat(status().get("drops")).hasSize(2);
    assertThat(status().get("drops").get(1).get("reason").asText()).isEqualTo("zone b is down");

    Cli.Run unshed = Cli.against(sb, "unshed", "greeter", "--category", "batch");
    assertThat(unshed.exit()).as(unshed.err()).isZero();
    assertThat(unshed.out()).isEqualTo("unshed: clients of greeter drop no calls for the operator any more "
        + "(1 lifted)\n");
    await().atMost(Duration.ofSeconds(10)).until(() -> servedDrops().size() == 1);
    assertThat(servedDrops().get(0).getCategory()).isEqualTo("signalbox_operator");
  }

  @Test
  void aDropOfEveryCallNeedsForceAndAShareOutOfRangeIsRefusedWithTheServersWords() throws Exception {
    Cli.Run all = Cli.against(sb, "shed", "greeter", "--percent", "100");
    Cli.Run tooMuch = Cli.against(sb, "shed", "greeter", "--percent", "150");
    Cli.Run nothing = Cli.against(sb, "unshed", "greeter");

    assertThat(all.exit()).isEqualTo(1);
    assertThat(all.err()).isEqualTo("signalbox: a drop of 100% fails every call to cluster 'greeter'; say --force "
        + "(\"force\": true) if that is meant\n");
    assertThat(tooMuch.exit()).isEqualTo(1);
    assertThat(tooMuch.err()).isEqualTo("signalbox: percent must be a share of calls in (0, 100] with at most 4 "
        + "decimals, was 150\n");
    assertThat(nothing.exit()).isEqualTo(1);
    assertThat(nothing.err()).isEqualTo("signalbox: cluster 'greeter' has no operator drop\n");
    assertThat(status().get("drops")).isEmpty();

    Cli.Run forced = Cli.against(sb, "shed", "greeter", "--percent", "100", "--force");
    assertThat(forced.exit()).as(forced.err()).isZero();
    await().atMost(Duration.ofSeconds(10)).until(() -> servedDrops().size() == 1);
    assertThat(servedDrops().get(0).getDropPercentage().getNumerator()).isEqualTo(1_000_000);
  }

  @Test
  void freezeEjectionsShowsInStatusAndAnOperatorsEjectSaysSo() throws Exception {
    Cli.Run freeze = Cli.against(sb, "freeze-ejections", "--reason", "incident 12");

    assertThat(freeze.exit()).as(freeze.err()).isZero();
    JsonNode frozen = status();
    assertThat(frozen.get("ejectionsFrozen").asBoolean()).isTrue();
    assertThat(frozen.get("ejectionFreeze").get("reason").asText()).isEqualTo("incident 12");
    Cli.Run eject = Cli.against(sb, "eject", "greeter", "127.0.0.1:50001");
    assertThat(eject.out()).isEqualTo("ejected greeter/127.0.0.1:50001 for 30s\n"
        + "ejections are frozen (by anonymous); an operator's eject still applies\n");

    Cli.Run unfreeze = Cli.against(sb, "unfreeze-ejections");
    assertThat(unfreeze.out()).isEqualTo("ejections unfrozen: held ejections are published\n");
    assertThat(status().get("ejectionsFrozen").asBoolean()).isFalse();
    assertThat(Cli.against(sb, "unfreeze-ejections").out()).isEqualTo("ejections were not frozen\n");
  }
}
