package io.signalbox.store.postgres;

import static io.signalbox.store.postgres.DatabaseCall.call;
import static io.signalbox.store.postgres.UtcTimestamps.utc;
import static io.signalbox.store.jooq.Tables.AUDIT_LOG;
import static io.signalbox.store.jooq.Tables.REJECTED_CANDIDATES;

import io.signalbox.store.AuditEntry;
import io.signalbox.store.RejectedCandidate;
import java.util.Arrays;
import java.util.List;
import org.jooq.DSLContext;

/**
 * What was decided and by whom, kept apart from the epochs it is about: candidates the validator
 * rejected (they never became epochs) in {@code rejected_candidates}, and actions in {@code audit_log}.
 */
final class PostgresAuditTrail {

  private final DSLContext db;

  PostgresAuditTrail(DSLContext db) {
    this.db = db;
  }

  void recordRejection(RejectedCandidate candidate) {
    call("record rejected candidate", () -> db.insertInto(REJECTED_CANDIDATES)
        .set(REJECTED_CANDIDATES.AT, utc(candidate.at()))
        .set(REJECTED_CANDIDATES.CAUSE, candidate.cause())
        // RejectedCandidate renders each violation on one line, so lines round-trip exactly.
        .set(REJECTED_CANDIDATES.VIOLATIONS, String.join("\n", candidate.violations()))
        .execute());
  }

  List<RejectedCandidate> rejections(int limit) {
    return call("list rejected candidates", () -> db.selectFrom(REJECTED_CANDIDATES)
        .orderBy(REJECTED_CANDIDATES.ID.desc())
        .limit(limit)
        .fetch(r -> new RejectedCandidate(r.getAt().toInstant(), r.getCause(),
            r.getViolations().isEmpty() ? List.of() : Arrays.asList(r.getViolations().split("\n", -1)))));
  }

  void audit(AuditEntry entry) {
    call("write audit entry", () -> db.insertInto(AUDIT_LOG)
        .set(AUDIT_LOG.AT, utc(entry.at()))
        .set(AUDIT_LOG.ACTOR, entry.actor())
        .set(AUDIT_LOG.ACTION, entry.action())
        .set(AUDIT_LOG.TARGET, entry.target())
        .set(AUDIT_LOG.REASON, entry.reason() == null ? "" : entry.reason())
        .execute());
  }

  List<AuditEntry> auditLog(int limit) {
    return call("read audit log", () -> db.selectFrom(AUDIT_LOG)
        .orderBy(AUDIT_LOG.AT.desc(), AUDIT_LOG.ID.desc())
        .limit(limit)
        .fetch(r -> new AuditEntry(r.getAt().toInstant(), r.getActor(), r.getAction(), r.getTarget(),
            r.getReason())));
  }
}
