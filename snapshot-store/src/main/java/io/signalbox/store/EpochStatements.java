package io.signalbox.store;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.signalbox.proto.v1.SnapshotEnvelope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Optional;

/**
 * The statements of {@code epochs} that run once per change or in a checkpoint, as SQL written once
 * and bound by hand: jOOQ rendered them for every epoch, and a checkpoint runs too rarely for the
 * JIT to compile jOOQ's building of its update, which took tens of milliseconds interpreted
 * (docs/benchmarks.md, issue 17). Each runs on the connection, and so in the transaction, it is
 * given; {@link PostgresEpochLog} decides what they mean.
 */
final class EpochStatements {

  private EpochStatements() {}

  private static final String NEXT_EPOCH =
      "UPDATE epoch_counter SET last_epoch = last_epoch + 1 WHERE id = 1 RETURNING last_epoch";

  /** The next epoch number; the counter's row stays locked until the transaction ends. */
  static long nextEpoch(Connection c) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(NEXT_EPOCH);
        ResultSet r = s.executeQuery()) {
      if (!r.next()) {
        throw new IllegalStateException("epoch_counter has no row 1");
      }
      return r.getLong(1);
    }
  }

  /**
   * The row, inserted only if the row it is a delta on is still stored ({@code ? OR EXISTS}: true
   * for a full envelope), and the notification of it. One row back if it was inserted.
   */
  private static final String INSERT_EPOCH = """
      WITH inserted AS (
        INSERT INTO epochs (epoch, parent_epoch, base_epoch, created_at, content_hash, envelope, status, reason, cause,
                            provenance, term)
        SELECT ?, ?, ?, ?, ?, ?, ?, '', ?, ?::jsonb, ?
        WHERE ? OR EXISTS (SELECT 1 FROM epochs WHERE epoch = ? AND base_epoch = ?)
        RETURNING epoch)
      SELECT pg_notify(?, ?) FROM inserted""";

  /**
   * Inserts {@code stored} as epoch {@code epoch}, ACTIVE, and notifies the listeners on commit.
   *
   * @param tip the row {@code stored} is a delta on, null for a full envelope
   * @return false if {@code tip}'s row is gone and nothing was inserted
   */
  static boolean insert(Connection c, long epoch, EpochChain.Stored stored, EpochChain.Link tip, long term,
      OffsetDateTime createdAt) throws SQLException {
    SnapshotEnvelope envelope = stored.envelope();
    try (PreparedStatement s = c.prepareStatement(INSERT_EPOCH)) {
      int i = 0;
      s.setLong(++i, epoch);
      s.setLong(++i, envelope.getParentEpoch());
      s.setLong(++i, stored.link().baseEpoch());
      s.setObject(++i, createdAt);
      s.setString(++i, envelope.getContentHash());
      s.setBytes(++i, envelope.toByteArray());
      s.setString(++i, EpochStatus.ACTIVE.name());
      s.setString(++i, envelope.getProvenance().getCause());
      s.setString(++i, provenanceJson(envelope));
      s.setLong(++i, term);
      s.setBoolean(++i, tip == null);
      s.setLong(++i, tip == null ? 0 : tip.epoch());
      s.setLong(++i, tip == null ? 0 : tip.baseEpoch());
      // Payloads stay far under PostgreSQL's 8000-byte limit: a word, never a resource.
      s.setString(++i, PostgresNotifications.CHANNEL);
      s.setString(++i, "epoch");
      try (ResultSet r = s.executeQuery()) {
        return r.next();
      }
    }
  }

  private static final String CHECKPOINT = """
      UPDATE epochs SET full_envelope = ?
      WHERE epoch = ? AND content_hash = ? AND full_envelope IS NULL AND base_epoch <> epoch
      RETURNING base_epoch""";

  /** Adds a full copy to a delta row of that content that has none; its base epoch if it did. */
  static Optional<Long> checkpoint(Connection c, long epoch, String contentHash, byte[] full) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(CHECKPOINT)) {
      s.setBytes(1, full);
      s.setLong(2, epoch);
      s.setString(3, contentHash);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? Optional.of(r.getLong(1)) : Optional.empty();
      }
    }
  }

  private static final String SET_STATUS = "UPDATE epochs SET status = ?, reason = ? WHERE epoch = ?";
  private static final String REPLACE_STATUS = SET_STATUS + " AND status = ?";

  /**
   * Sets an epoch's status (every published epoch supersedes its parent, so this runs once per
   * change); only if it is {@code expected}, unless that is null. The rows changed, 0 or 1.
   */
  static int setStatus(Connection c, long epoch, EpochStatus expected, EpochStatus status, String reason)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement(expected == null ? SET_STATUS : REPLACE_STATUS)) {
      s.setString(1, status.name());
      s.setString(2, reason == null ? "" : reason);
      s.setLong(3, epoch);
      if (expected != null) {
        s.setString(4, expected.name());
      }
      return s.executeUpdate();
    }
  }

  private static String provenanceJson(SnapshotEnvelope envelope) {
    try {
      return JsonFormat.printer().omittingInsignificantWhitespace().print(envelope.getProvenance());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("epoch " + envelope.getEpoch() + ": provenance cannot be rendered as JSON", e);
    }
  }
}
