package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every store's {@link AuditTrail} keeps and in which order; run for each store by the subclasses. */
public abstract class AuditTrailContract {

  protected static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
  protected final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
  protected SnapshotStore store;

  protected abstract SnapshotStore openStore(Clock clock);

  @BeforeEach
  void open() {
    store = openStore(clock);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void keepsRejectedCandidatesNewestFirstWithoutCreatingEpochs() {
    RejectedCandidate older = new RejectedCandidate(NOW, "endpoint file",
        List.of("cluster 'payments': weight: must be <= 10000, was 20000", "cluster 'payments': port: must be > 0"));
    RejectedCandidate newer = new RejectedCandidate(NOW.plusSeconds(5), "config reload", List.of());

    store.recordRejection(older);
    store.recordRejection(newer);

    assertThat(store.rejections(10)).containsExactly(newer, older);
    assertThat(store.rejections(1)).containsExactly(newer);
    assertThat(store.lastEpoch()).isZero();
  }

  @Test
  void keepsTheAuditLogNewestFirst() {
    AuditEntry drain = new AuditEntry(NOW, "alice", "drain", "greeter/10.0.0.1:8080", "kernel upgrade");
    AuditEntry rollback = new AuditEntry(NOW.plusSeconds(60), "bob", "rollback", "epoch 7", "");

    store.audit(drain);
    store.audit(rollback);

    assertThat(store.auditLog(10)).containsExactly(rollback, drain);
    assertThat(store.auditLog(1)).containsExactly(rollback);
  }

  @Test
  void ordersTheAuditLogByTimeEvenWhenACauseIsWrittenAfterItsEffect() {
    // An operator's request is stamped when it arrives; the transition it causes can be written
    // by the reconciler before the request's own entry.
    AuditEntry transition = new AuditEntry(NOW.plusMillis(5), "signalbox", "transition", "orders/10.0.0.1:8080", "");
    AuditEntry register = new AuditEntry(NOW, "alice", "register", "orders/10.0.0.1:8080", "");
    AuditEntry sameInstant = new AuditEntry(NOW.plusMillis(5), "bob", "drain", "orders/10.0.0.2:8080", "");

    store.audit(transition);
    store.audit(register);
    store.audit(sameInstant);

    assertThat(store.auditLog(10)).containsExactly(sameInstant, transition, register);
  }
}
