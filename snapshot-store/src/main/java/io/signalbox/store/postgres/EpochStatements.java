package io.signalbox.store.postgres;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.chain.EpochChain;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The statements of {@code epochs} that run once per change, on a timer or in a checkpoint, as SQL
 * written once and bound by hand: jOOQ rendered them every time, and a checkpoint runs too rarely
 * for the JIT to compile jOOQ's building of its update, which took tens of milliseconds interpreted
 * (docs/benchmarks-history.md, issue 17). Each runs on the connection, and so in the transaction, it is
 * given; {@link PostgresEpochLog} decides what they mean.
 */
final class EpochStatements {

  private EpochStatements() {}

  private static final String NEXT_EPOCH =
      "UPDATE epoch_counter SET last_epoch = last_epoch + 1 WHERE id = 1 RETURNING last_epoch";

  /** The next epoch number; the counter's row stays locked until the transaction ends. */
  static long nextEpoch(Connection c) throws SQLException {
    return counter(c, NEXT_EPOCH);
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

  private static final String AFTER = "SELECT epoch, envelope FROM epochs WHERE epoch > ? ORDER BY epoch LIMIT ?";

  /**
   * Up to {@code limit} rows after {@code epoch}, oldest first, as stored (a delta stays a delta):
   * a follower reads this after every commit. One statement, so one consistent read.
   */
  static List<SnapshotEnvelope> after(Connection c, long epoch, int limit) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(AFTER)) {
      s.setLong(1, epoch);
      s.setInt(2, limit);
      List<SnapshotEnvelope> out = new ArrayList<>();
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.add(parse(r.getLong(1), r.getBytes(2)));
        }
      }
      return out;
    }
  }

  private static final String LAST_EPOCH = "SELECT last_epoch FROM epoch_counter WHERE id = 1";

  /** The highest epoch ever allocated, as the counter says. */
  static long lastEpoch(Connection c) throws SQLException {
    return counter(c, LAST_EPOCH);
  }

  /** The counter's value as {@code sql} returns it in its only row. */
  private static long counter(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql);
        ResultSet r = s.executeQuery()) {
      if (!r.next()) {
        throw new IllegalStateException("epoch_counter has no row 1");
      }
      return r.getLong(1);
    }
  }

  private static final String RECORD_COLUMNS =
      "SELECT epoch, parent_epoch, created_at, content_hash, status, reason, cause, term FROM epochs ";
  private static final String RECORDS = RECORD_COLUMNS + "WHERE epoch < ? ORDER BY epoch DESC LIMIT ?";
  // epochs_status_idx (status, epoch) answers this without a scan.
  private static final String NEWEST_WITH_STATUS = RECORD_COLUMNS + "WHERE status = ? ORDER BY epoch DESC LIMIT 1";
  private static final String RECORD = RECORD_COLUMNS + "WHERE epoch = ?";

  /** Up to {@code limit} epochs below {@code before}, newest first (the dashboard samples these twice a second). */
  static List<EpochRecord> records(Connection c, int limit, long before) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(RECORDS)) {
      s.setLong(1, before);
      s.setInt(2, limit);
      return records(s);
    }
  }

  static Optional<EpochRecord> newestWithStatus(Connection c, EpochStatus status) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(NEWEST_WITH_STATUS)) {
      s.setString(1, status.name());
      return records(s).stream().findFirst();
    }
  }

  static Optional<EpochRecord> record(Connection c, long epoch) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(RECORD)) {
      s.setLong(1, epoch);
      return records(s).stream().findFirst();
    }
  }

  private static List<EpochRecord> records(PreparedStatement s) throws SQLException {
    List<EpochRecord> out = new ArrayList<>();
    try (ResultSet r = s.executeQuery()) {
      while (r.next()) {
        out.add(new EpochRecord(r.getLong(1), r.getLong(2), r.getObject(3, OffsetDateTime.class).toInstant(),
            r.getString(4), EpochStatus.valueOf(r.getString(5)), r.getString(6), r.getString(7), r.getLong(8)));
      }
    }
    return out;
  }

  static SnapshotEnvelope parse(long epoch, byte[] bytes) {
    try {
      return SnapshotEnvelope.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("epoch " + epoch + ": stored envelope is not a SnapshotEnvelope", e);
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
