package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;

/**
 * Operator intent a drill set through the admin API, and the check that it is in force: what the
 * API answered {@code 202} for is stored, so it must hold after any crash (DESIGN "Operator intent
 * is durable"). Drains, weights and ejections are of single endpoints; the freeze is the server's.
 */
final class IntentLedger {

  /** The back-off of repeated ejections of one endpoint: 30 s, doubling, at most 5 min. */
  static Duration ejectionTime(int earlierEjections) {
    return Duration.ofSeconds(Math.min(300, 30L << Math.min(earlierEjections, 4)));
  }

  private final Admin admin;
  private final String actor;
  private JsonNode freeze;
  private String drained;
  private String weighted;
  private int weight;
  private String ejected;
  private int ejections;
  private Instant ejectedFrom;
  private Instant ejectedTo;

  IntentLedger(Admin admin, String actor) {
    this.admin = admin;
    this.actor = actor;
  }

  /** {@code cluster/address:port}, as the API paths name an endpoint. */
  private static String path(String endpoint) {
    int slash = endpoint.indexOf('/');
    return "/api/v1/clusters/" + endpoint.substring(0, slash) + "/endpoints/" + endpoint.substring(slash + 1);
  }

  void drain(String endpoint, String reason) {
    admin.sendJson("POST", path(endpoint) + "/drain", "{\"reason\": \"" + reason + "\", \"deadline\": \"1h\"}", 202);
    drained = endpoint;
  }

  void weight(String endpoint, int w) {
    admin.sendJson("PUT", path(endpoint) + "/weight", "{\"weight\": " + w + ", \"reason\": \"drill\"}", 202);
    weighted = endpoint;
    weight = w;
  }

  int weight() {
    return weight;
  }

  /** Ejects {@code endpoint} again; the answer's time must follow the back-off of every earlier ejection. */
  void eject(String endpoint) {
    Instant before = Instant.now();
    JsonNode answer = admin.sendJson("POST", path(endpoint) + "/eject", "{\"reason\": \"drill\"}", 202);
    Instant after = Instant.now();
    Duration expected = ejectionTime(ejections);
    assertThat(Duration.parse(answer.get("for").asText()))
        .as("ejection %d of %s: its back-off counts every earlier one, across crashes", ejections + 1, endpoint)
        .isEqualTo(expected);
    ejected = endpoint;
    ejections++;
    ejectedFrom = before.plus(expected);
    ejectedTo = after.plus(expected);
  }

  int ejections() {
    return ejections;
  }

  void freeze(String reason) {
    admin.sendJson("POST", "/api/v1/freeze", "{\"reason\": \"" + reason + "\"}", 200);
    freeze = admin.status().get("freeze");
    assertThat(freeze.get("actor").asText()).isEqualTo(actor);
    assertThat(freeze.get("reason").asText()).isEqualTo(reason);
  }

  void unfreeze() {
    admin.sendJson("POST", "/api/v1/unfreeze", null, 200);
    freeze = null;
  }

  boolean frozen() {
    return freeze != null;
  }

  /**
   * The freeze (same actor, reason and time), the drain, the weight and the ejection are what the
   * operator set, as the API shows them. Call it once the server has caught up with its inputs.
   * While frozen the published endpoints are those of the moment of the freeze, so an ejection's
   * expiry is not looked for then (weights and drains only change while not frozen).
   */
  void assertInForce(String when) {
    JsonNode status = admin.status();
    if (freeze != null) {
      assertThat(status.get("frozen").asBoolean()).as("%s: still frozen", when).isTrue();
      assertThat(status.get("freeze")).as("%s: the same freeze (actor, reason, time)", when).isEqualTo(freeze);
    } else {
      assertThat(status.get("frozen").asBoolean()).as("%s: not frozen", when).isFalse();
    }
    JsonNode drain = endpoint(drained);
    assertThat(drain.get("state").asText()).as("%s: %s still DRAINING", when, drained).isEqualTo("DRAINING");
    assertThat(drain.get("override").asText()).as("%s: drained by the operator", when).contains("drained by " + actor);

    JsonNode w = endpoint(weighted);
    assertThat(w.get("override").asText()).as("%s: weight override of %s", when, weighted)
        .contains("weight " + weight + " by " + actor);
    assertThat(w.get("weight").asInt()).as("%s: %s still weighs %d", when, weighted, weight).isEqualTo(weight);

    JsonNode e = endpoint(ejected);
    String override = e.get("override").asText();
    assertThat(override).as("%s: ejected by the operator", when).startsWith("ejected by " + actor + " until ");
    Instant until = Instant.parse(override.substring(override.lastIndexOf(' ') + 1));
    assertThat(until).as("%s: the ejection's end is the one answered", when)
        .isBetween(ejectedFrom.minusMillis(1), ejectedTo.plusMillis(1));
    if (freeze == null && Instant.now().isBefore(until.minusSeconds(2))) {
      assertThat(e.get("state").asText()).as("%s: %s still EJECTED (until %s)", when, ejected, until)
          .isEqualTo("EJECTED");
    }
  }

  private JsonNode endpoint(String endpoint) {
    int slash = endpoint.indexOf('/');
    String cluster = endpoint.substring(0, slash);
    String key = endpoint.substring(slash + 1);
    for (JsonNode e : admin.getJson("/api/v1/clusters/" + cluster + "/endpoints")) {
      if (e.get("endpoint").asText().equals(key)) {
        return e;
      }
    }
    throw new AssertionError("no endpoint " + key + " in cluster " + cluster);
  }
}
