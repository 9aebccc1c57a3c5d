package io.signalbox.source.registry;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.signalbox.model.CapacitySpec;
import io.signalbox.model.EndpointSpec;
import io.signalbox.validation.AdmissionRules;
import io.signalbox.validation.EndpointRules;
import io.signalbox.validation.NameRules;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a registration asks for, checked field by field before anything is written: the cluster
 * and endpoint from the request path (by {@link NameRules}, as every name), zone, weight, capacity,
 * metadata, hostname, hash key and additional addresses from its JSON body (all optional; the
 * weight, hostname, hash key and each additional address by {@link EndpointRules} and the capacity
 * by {@link AdmissionRules}, as in files, and every string free of control characters). What holds
 * only among endpoints (no address shared with another registration) is checked against the
 * cluster's other registrations when it is registered ({@link RegistrySource#register}).
 *
 * @param address without brackets
 * @param capacityRps null when the body declares no capacity
 * @param naming {@link Naming#NONE} when the body declares no hostname, hash key or additional address
 */
public record Registration(String cluster, String address, int port, String zone, int weight,
    Map<String, String> metadata, Integer capacityRps, Naming naming) {

  public static final int MAX_CLUSTER_LENGTH = 255;
  public static final int MAX_ZONE_LENGTH = 63;
  public static final int MAX_METADATA_ENTRIES = 16;
  public static final int MAX_METADATA_LENGTH = 256;
  /** An endpoint has an address per family, rarely more; this bounds what one registration may list. */
  public static final int MAX_ADDITIONAL_ADDRESSES = 8;

  public Registration {
    zone = zone == null ? "" : zone;
    metadata = Map.copyOf(metadata == null ? Map.of() : metadata);
    naming = naming == null ? Naming.NONE : naming;
  }

  /** A registration declaring no capacity. */
  public Registration(String cluster, String address, int port, String zone, int weight,
      Map<String, String> metadata) {
    this(cluster, address, port, zone, weight, metadata, null, Naming.NONE);
  }

  /** A registration declaring no hostname, hash key or additional address. */
  public Registration(String cluster, String address, int port, String zone, int weight,
      Map<String, String> metadata, Integer capacityRps) {
    this(cluster, address, port, zone, weight, metadata, capacityRps, Naming.NONE);
  }

  /** The outcome of {@link #parse}: a registration, or the first field that is wrong and why. */
  public sealed interface Parsed {}

  public record Ok(Registration registration) implements Parsed {}

  /**
   * @param field the offending field, e.g. {@code weight} or {@code metadata.team}
   * @param code stable, for tooling: {@code bad_cluster}, {@code bad_endpoint}, {@code bad_address},
   *     {@code bad_port}, {@code bad_zone}, {@code bad_weight}, {@code bad_capacity}, {@code bad_metadata},
   *     {@code bad_hostname}, {@code bad_hashKey}, {@code bad_additionalAddresses}
   */
  public record Invalid(String field, String code, String message) implements Parsed {}

  /**
   * A registration's JSON body, every field optional (null takes the default). Bound by the admin
   * API's one strict reader, which refuses what Jackson can tell (unknown keys, a wrong JSON type,
   * an integer out of {@code int}'s range, a null metadata value) and names the field in the code
   * ({@code bad_weight}) with the description given here; {@link #parse} checks the ranges.
   */
  public record Body(
      String zone,
      @JsonPropertyDescription(EndpointRules.WEIGHT_RANGE) Integer weight,
      @JsonSetter(contentNulls = Nulls.FAIL) Map<String, String> metadata,
      @JsonPropertyDescription("an object {\"rps\": N}, N " + AdmissionRules.RPS_RANGE) CapacitySpec capacity,
      @JsonPropertyDescription("a DNS name") String hostname,
      @JsonPropertyDescription("a string of at most " + EndpointRules.MAX_HASH_KEY_LENGTH + " characters") String hashKey,
      @JsonPropertyDescription("an array of IPv4 or IPv6 addresses")
      @JsonSetter(contentNulls = Nulls.FAIL) List<String> additionalAddresses) {

    /** A body declaring no hostname, hash key or additional address. */
    public Body(String zone, Integer weight, Map<String, String> metadata, CapacitySpec capacity) {
      this(zone, weight, metadata, capacity, null, null, null);
    }
  }

  /**
   * @param endpoint {@code address:port} as in the path, IPv6 in brackets
   * @param body null when the request had none (every field takes its default)
   */
  public static Parsed parse(String cluster, String endpoint, Body body) {
    if (cluster == null || cluster.isEmpty()) {
      return new Invalid("cluster", "bad_cluster", "cluster must not be empty");
    }
    Optional<String> badName = NameRules.nameProblem(cluster);
    if (badName.isPresent()) {
      return new Invalid("cluster", "bad_cluster", "cluster " + badName.get());
    }
    if (cluster.length() > MAX_CLUSTER_LENGTH) {
      return new Invalid("cluster", "bad_cluster",
          "cluster must be at most " + MAX_CLUSTER_LENGTH + " characters, was " + cluster.length());
    }
    NameRules.EndpointKey key = NameRules.endpoint(endpoint);
    if (key instanceof NameRules.Refused bad) {
      return new Invalid(bad.part(), "bad_" + bad.part(), bad.message());
    }
    NameRules.Endpoint at = (NameRules.Endpoint) key;
    if (body == null) {
      return new Ok(new Registration(cluster, at.address(), at.port(), "", EndpointSpec.DEFAULT_WEIGHT, Map.of()));
    }
    // An empty zone is the same as none, as in an endpoint file.
    String zone = body.zone() == null ? "" : body.zone();
    if (zone.length() > MAX_ZONE_LENGTH) {
      return new Invalid("zone", "bad_zone",
          "zone must be at most " + MAX_ZONE_LENGTH + " characters, was " + zone.length());
    }
    Optional<String> badZone = NameRules.labelProblem(zone);
    if (badZone.isPresent()) {
      return new Invalid("zone", "bad_zone", "zone " + badZone.get());
    }
    int weight = body.weight() == null ? EndpointSpec.DEFAULT_WEIGHT : body.weight();
    Optional<String> badWeight = EndpointRules.weightProblem(weight);
    if (badWeight.isPresent()) {
      return new Invalid("weight", "bad_weight", badWeight.get());
    }
    Integer capacityRps = null;
    if (body.capacity() != null) {
      capacityRps = body.capacity().rps();
      if (capacityRps == null) {
        return new Invalid("capacity.rps", "bad_capacity", "capacity.rps is required: " + AdmissionRules.RPS_RANGE);
      }
      Optional<String> badCapacity = AdmissionRules.rpsProblem(capacityRps);
      if (badCapacity.isPresent()) {
        return new Invalid("capacity.rps", "bad_capacity", "capacity.rps " + badCapacity.get());
      }
    }
    Map<String, String> metadata = body.metadata() == null ? Map.of() : body.metadata();
    Invalid bad = metadata(metadata);
    if (bad != null) {
      return bad;
    }
    Naming naming = new Naming(body.hostname(), body.hashKey(), body.additionalAddresses());
    bad = naming(naming);
    if (bad != null) {
      return bad;
    }
    return new Ok(new Registration(cluster, at.address(), at.port(), zone, weight, metadata, capacityRps, naming));
  }

  private static Invalid naming(Naming naming) {
    String hostname = naming.hostname();
    if (!hostname.isEmpty()) {
      Optional<String> bad = EndpointRules.hostnameProblem(hostname);
      if (bad.isPresent()) {
        return new Invalid("hostname", "bad_hostname", "hostname " + bad.get());
      }
    }
    Optional<String> badKey = EndpointRules.hashKeyProblem(naming.hashKey());
    if (badKey.isPresent()) {
      return new Invalid("hashKey", "bad_hashKey", "hashKey " + badKey.get());
    }
    List<String> additional = naming.additionalAddresses();
    if (additional.size() > MAX_ADDITIONAL_ADDRESSES) {
      return new Invalid("additionalAddresses", "bad_additionalAddresses", "additionalAddresses may have at most "
          + MAX_ADDITIONAL_ADDRESSES + " entries, was " + additional.size());
    }
    for (String a : additional) {
      Optional<String> bad = EndpointRules.additionalAddressProblem(a);
      if (bad.isPresent()) {
        return new Invalid("additionalAddresses", "bad_additionalAddresses", "additionalAddresses " + bad.get());
      }
    }
    return null;
  }

  private static Invalid metadata(Map<String, String> metadata) {
    if (metadata.size() > MAX_METADATA_ENTRIES) {
      return new Invalid("metadata", "bad_metadata",
          "metadata may have at most " + MAX_METADATA_ENTRIES + " entries, was " + metadata.size());
    }
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      String key = e.getKey();
      if (key.isEmpty() || key.length() > MAX_METADATA_LENGTH) {
        return new Invalid("metadata", "bad_metadata",
            "metadata keys must be 1 to " + MAX_METADATA_LENGTH + " characters, was " + key.length());
      }
      Optional<String> badKey = NameRules.labelProblem(key);
      if (badKey.isPresent()) {
        return new Invalid("metadata", "bad_metadata", "a metadata key " + badKey.get());
      }
      if (e.getValue().length() > MAX_METADATA_LENGTH) {
        return new Invalid("metadata." + key, "bad_metadata", "metadata." + key + " must be at most "
            + MAX_METADATA_LENGTH + " characters, was " + e.getValue().length());
      }
      Optional<String> badValue = NameRules.textProblem(e.getValue());
      if (badValue.isPresent()) {
        return new Invalid("metadata." + key, "bad_metadata", "metadata." + key + " " + badValue.get());
      }
    }
    return null;
  }

  /** {@code address:port}, IPv6 in brackets. */
  public String endpoint() {
    return (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
  }
}
