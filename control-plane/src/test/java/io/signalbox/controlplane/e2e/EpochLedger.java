package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;

/**
 * What a drill has seen of the epoch log across restarts, and the invariants it must keep (DESIGN
 * §3, invariant 5): an epoch a client may hold is never lost, so the served epoch never goes below
 * one that any client was seen holding or that the API reported; a number names one epoch forever
 * (same content hash and creation time whenever it is listed again); {@code GET /api/v1/epochs}
 * is strictly decreasing, without duplicates; the last SAFE epoch never goes back.
 */
final class EpochLedger {

  private final Map<Long, String> identity = new HashMap<>();
  private long newestHeld;
  private long newestReported;
  private long lastSafe;
  private int listed;

  /** Before a crash: what the API says and what every client holds now. */
  void observe(Admin admin) {
    JsonNode status = admin.status();
    newestReported = Math.max(newestReported, status.get("epoch").asLong());
    lastSafe = Math.max(lastSafe, status.get("lastSafeEpoch").asLong());
    for (JsonNode client : admin.getJson("/api/v1/clients")) {
      newestHeld = Math.max(newestHeld, client.get("epoch").asLong());
    }
    recordEpochs(admin);
  }

  /** A client (a recorder that ACKs everything) was seen holding {@code epoch}. */
  void held(long epoch) {
    newestHeld = Math.max(newestHeld, epoch);
  }

  long newestHeld() {
    return newestHeld;
  }

  /** After a restart: nothing went back, and every number still names what it named. */
  void assertNoRegression(Admin admin, String when) {
    JsonNode status = admin.status();
    long epoch = status.get("epoch").asLong();
    assertThat(epoch).as("%s: status.epoch %d is below an epoch a client held (%d)", when, epoch, newestHeld)
        .isGreaterThanOrEqualTo(newestHeld);
    assertThat(epoch).as("%s: status.epoch %d is below an epoch the API reported (%d)", when, epoch, newestReported)
        .isGreaterThanOrEqualTo(newestReported);
    long safe = status.get("lastSafeEpoch").asLong();
    assertThat(safe).as("%s: lastSafeEpoch went back", when).isGreaterThanOrEqualTo(lastSafe);
    lastSafe = safe;
    newestReported = epoch;
    recordEpochs(admin);
  }

  private void recordEpochs(Admin admin) {
    long previous = Long.MAX_VALUE;
    for (JsonNode e : admin.getJson("/api/v1/epochs?limit=1000")) {
      long epoch = e.get("epoch").asLong();
      assertThat(epoch).as("GET /api/v1/epochs is strictly decreasing, without duplicates").isLessThan(previous);
      previous = epoch;
      String id = e.get("contentHash").asText() + " created " + e.get("createdAt").asText();
      String before = identity.putIfAbsent(epoch, id);
      assertThat(before == null ? id : before).as("epoch %d names one epoch forever", epoch).isEqualTo(id);
      listed++;
    }
  }

  /** Distinct epoch numbers seen in the log. */
  int distinctEpochs() {
    return identity.size();
  }

  long newestReported() {
    return newestReported;
  }

  int listings() {
    return listed;
  }
}
