package io.signalbox.store.postgres;

import static io.signalbox.store.postgres.DatabaseCall.call;
import static io.signalbox.store.postgres.UtcTimestamps.utc;
import static io.signalbox.store.jooq.Tables.REGISTRY_LEASES;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import io.signalbox.store.LeaseStore;
import io.signalbox.store.StoredLease;
import io.signalbox.store.jooq.tables.records.RegistryLeasesRecord;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.JSON;

/**
 * Leases in the {@code registry_leases} table; metadata as a JSON object of strings, the capacity in
 * its own column (NULL: none declared), the additional addresses as a JSON array of strings.
 */
final class PostgresLeaseStore implements LeaseStore {

  private final DSLContext db;

  PostgresLeaseStore(DSLContext db) {
    this.db = db;
  }

  // The registry sweeps every second: these two run as SQL written once, not rendered by jOOQ each
  // time (docs/benchmarks-history.md, issue 17). Sorted here, not by the database: its collation need not
  // order strings as Java does.
  private static final String COLUMNS =
      "cluster, address, port, zone, weight, metadata, registered_by, created_at, expires_at, capacity_rps,"
      + " hostname, hash_key, additional_addresses";
  private static final String ALL = "SELECT " + COLUMNS + " FROM registry_leases";
  private static final String EXPIRE = "DELETE FROM registry_leases WHERE expires_at <= ? RETURNING " + COLUMNS;

  @Override
  public List<StoredLease> all() {
    return call("list leases", () -> db.connectionResult(c -> {
      try (PreparedStatement s = c.prepareStatement(ALL)) {
        return leases(s);
      }
    }));
  }

  @Override
  public StoredLease put(StoredLease l) {
    // One statement, so two replicas renewing the same lease at once cannot both insert.
    return call("store a lease", () -> toLease(db.insertInto(REGISTRY_LEASES)
        .set(REGISTRY_LEASES.CLUSTER, l.cluster())
        .set(REGISTRY_LEASES.ADDRESS, l.address())
        .set(REGISTRY_LEASES.PORT, l.port())
        .set(REGISTRY_LEASES.ZONE, l.zone())
        .set(REGISTRY_LEASES.WEIGHT, l.weight())
        .set(REGISTRY_LEASES.METADATA, json(l.metadata()))
        .set(REGISTRY_LEASES.REGISTERED_BY, l.registeredBy())
        .set(REGISTRY_LEASES.CREATED_AT, utc(l.createdAt()))
        .set(REGISTRY_LEASES.EXPIRES_AT, utc(l.expiresAt()))
        .set(REGISTRY_LEASES.CAPACITY_RPS, l.capacityRps())
        .set(REGISTRY_LEASES.HOSTNAME, l.naming().hostname())
        .set(REGISTRY_LEASES.HASH_KEY, l.naming().hashKey())
        .set(REGISTRY_LEASES.ADDITIONAL_ADDRESSES, json(l.naming().additionalAddresses()))
        .onConflict(REGISTRY_LEASES.CLUSTER, REGISTRY_LEASES.ADDRESS, REGISTRY_LEASES.PORT)
        .doUpdate()
        .set(REGISTRY_LEASES.ZONE, l.zone())
        .set(REGISTRY_LEASES.WEIGHT, l.weight())
        .set(REGISTRY_LEASES.METADATA, json(l.metadata()))
        .set(REGISTRY_LEASES.REGISTERED_BY, l.registeredBy())
        .set(REGISTRY_LEASES.EXPIRES_AT, utc(l.expiresAt()))
        .set(REGISTRY_LEASES.CAPACITY_RPS, l.capacityRps())
        .set(REGISTRY_LEASES.HOSTNAME, l.naming().hostname())
        .set(REGISTRY_LEASES.HASH_KEY, l.naming().hashKey())
        .set(REGISTRY_LEASES.ADDITIONAL_ADDRESSES, json(l.naming().additionalAddresses()))
        .returning()
        .fetchSingle()));
  }

  @Override
  public boolean remove(String cluster, String address, int port) {
    return call("remove a lease", () -> db.deleteFrom(REGISTRY_LEASES)
        .where(REGISTRY_LEASES.CLUSTER.eq(cluster))
        .and(REGISTRY_LEASES.ADDRESS.eq(address))
        .and(REGISTRY_LEASES.PORT.eq(port))
        .execute() > 0);
  }

  @Override
  public List<StoredLease> expire(Instant now) {
    return call("expire leases", () -> db.connectionResult(c -> {
      try (PreparedStatement s = c.prepareStatement(EXPIRE)) {
        s.setObject(1, utc(now));
        return leases(s);
      }
    }));
  }

  private static List<StoredLease> leases(PreparedStatement s) throws SQLException {
    List<StoredLease> out = new ArrayList<>();
    try (ResultSet r = s.executeQuery()) {
      while (r.next()) {
        out.add(new StoredLease(r.getString(1), r.getString(2), r.getInt(3), r.getString(4), r.getInt(5),
            metadata(r.getString(6)), r.getString(7), r.getObject(8, OffsetDateTime.class).toInstant(),
            r.getObject(9, OffsetDateTime.class).toInstant(), r.getObject(10, Integer.class),
            new StoredLease.Naming(r.getString(11), r.getString(12), addresses(r.getString(13)))));
      }
    }
    out.sort(StoredLease.ORDER);
    return List.copyOf(out);
  }

  private static StoredLease toLease(RegistryLeasesRecord r) {
    return new StoredLease(r.getCluster(), r.getAddress(), r.getPort(), r.getZone(), r.getWeight(),
        metadata(r.getMetadata().data()), r.getRegisteredBy(), r.getCreatedAt().toInstant(), r.getExpiresAt().toInstant(),
        r.getCapacityRps(), new StoredLease.Naming(r.getHostname(), r.getHashKey(),
            addresses(r.getAdditionalAddresses().data())));
  }

  private static JSON json(Map<String, String> metadata) {
    Struct.Builder struct = Struct.newBuilder();
    metadata.forEach((k, v) -> struct.putFields(k, Value.newBuilder().setStringValue(v).build()));
    try {
      return JSON.valueOf(JsonFormat.printer().omittingInsignificantWhitespace().print(struct));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("lease metadata cannot be rendered as JSON: " + metadata, e);
    }
  }

  private static JSON json(List<String> addresses) {
    ListValue.Builder list = ListValue.newBuilder();
    addresses.forEach(a -> list.addValues(Value.newBuilder().setStringValue(a)));
    try {
      return JSON.valueOf(JsonFormat.printer().omittingInsignificantWhitespace().print(list));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("additional addresses cannot be rendered as JSON: " + addresses, e);
    }
  }

  private static List<String> addresses(String json) {
    ListValue.Builder list = ListValue.newBuilder();
    try {
      JsonFormat.parser().merge(json, list);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("registry_leases.additional_addresses is not a JSON array: " + json, e);
    }
    return list.getValuesList().stream().map(Value::getStringValue).toList();
  }

  private static Map<String, String> metadata(String json) {
    Struct.Builder struct = Struct.newBuilder();
    try {
      JsonFormat.parser().merge(json, struct);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("registry_leases.metadata is not a JSON object: " + json, e);
    }
    Map<String, String> out = new LinkedHashMap<>();
    struct.getFieldsMap().forEach((k, v) -> out.put(k, v.getStringValue()));
    return out;
  }
}
