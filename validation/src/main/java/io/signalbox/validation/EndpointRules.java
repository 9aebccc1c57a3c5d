package io.signalbox.validation;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Endpoints of every cluster: address, port, weight, priority, uniqueness, capacity, hash key and hostname. */
public final class EndpointRules {

  static final int MAX_PRIORITY = 127;
  /**
   * An endpoint's weight, the one range for every input that sets one: endpoint files, the
   * registry and the operator API's re-weight (Envoy refuses an LB weight of 0).
   */
  public static final int MIN_WEIGHT = 1;
  public static final int MAX_WEIGHT = RouteRules.MAX_WEIGHT;
  /** What a weight must be, as messages and API descriptions say it. */
  public static final String WEIGHT_RANGE = "an integer from " + MIN_WEIGHT + " to " + MAX_WEIGHT;

  /** A hash key is an opaque string clients hash; this bounds what one endpoint may make them hash. */
  public static final int MAX_HASH_KEY_LENGTH = 256;

  private EndpointRules() {}

  /** Why {@code hashKey} is no endpoint's ring key, or empty; the one rule for files and the registry. */
  public static Optional<String> hashKeyProblem(String hashKey) {
    if (hashKey.length() > MAX_HASH_KEY_LENGTH) {
      return Optional.of("must be at most " + MAX_HASH_KEY_LENGTH + " characters, was " + hashKey.length());
    }
    if (hashKey.chars().anyMatch(Character::isISOControl)) {
      return Optional.of("must not contain control characters");
    }
    return Optional.empty();
  }

  /** Why {@code hostname} is no endpoint's hostname ({@code must be a DNS name, was 'x'}), or empty. */
  public static Optional<String> hostnameProblem(String hostname) {
    return Addresses.isHostname(hostname) ? Optional.empty()
        : Optional.of("must be a DNS name, was " + Findings.quote(hostname));
  }

  /**
   * Why {@code address} is no endpoint's additional address, or empty: gRFC A61 clients parse each
   * one as an IP (grpc-java NACKs the assignment otherwise), so a DNS name is refused here.
   */
  public static Optional<String> additionalAddressProblem(String address) {
    return address != null && Addresses.isIp(address) ? Optional.empty()
        : Optional.of("must be IPv4 or IPv6 addresses, was " + Findings.quote(String.valueOf(address)));
  }

  static void check(DesiredState state, Findings f) {
    Map<String, ClusterSpec> declared = new HashMap<>();
    for (ClusterSpec cluster : state.clusters()) {
      if (cluster != null && cluster.name() != null) {
        declared.putIfAbsent(cluster.name(), cluster);
      }
    }
    state.endpoints().forEach((cluster, endpoints) ->
        checkCluster(cluster, endpoints, minEligible(declared.get(cluster)), f));
  }

  /**
   * Why a list of zone hints is refused: an empty or repeated zone (a zone's clients would be
   * counted twice, or a client of no zone matched), or empty when there is no problem.
   */
  public static Optional<String> zoneHintsProblem(List<String> zones) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (String zone : zones) {
      if (zone == null || zone.isBlank()) {
        return Optional.of("a zone must not be empty, was " + zones);
      }
      if (!seen.add(zone)) {
        return Optional.of("names zone '" + zone + "' twice");
      }
    }
    return Optional.empty();
  }

  /** Why {@code weight} is no endpoint's weight ({@code "weight must be ..., was 0"}), or empty. */
  public static Optional<String> weightProblem(long weight) {
    return weight >= MIN_WEIGHT && weight <= MAX_WEIGHT ? Optional.empty()
        : Optional.of("weight must be " + WEIGHT_RANGE + ", was " + weight);
  }

  /** The only part of a cluster's declaration its endpoint rules read. */
  static int minEligible(ClusterSpec declared) {
    return declared == null ? ClusterSpec.DEFAULT_MIN_ELIGIBLE : declared.effectiveMinEligible();
  }

  /**
   * One cluster's endpoint rules. Reads nothing but its arguments, which is what lets the validator
   * reuse the result while they stay equal.
   */
  static void checkCluster(String cluster, List<EndpointSpec> endpoints, int minEligible, Findings f) {
    String label = Labels.endpoints(cluster);
    String firstOrigin = endpoints.isEmpty() || endpoints.get(0) == null ? "" : endpoints.get(0).origin();
    TreeSet<Integer> priorities = new TreeSet<>();
    Map<Integer, String> originOfPriority = new HashMap<>();
    checkEach(cluster, endpoints, priorities, originOfPriority, f);
    checkContiguous(label, priorities, originOfPriority, f);
    int eligible = Capacity.eligibleCount(endpoints);
    if (!endpoints.isEmpty() && eligible < minEligible) {
      f.warning(
          "capacity.min-eligible",
          firstOrigin,
          label,
          "has " + eligible + " eligible (READY/DEGRADED) endpoint(s), minEligible is " + minEligible);
    }
  }

  /**
   * The rules one source's list for a cluster must meet on its own, whatever other sources report:
   * the cluster's name, each endpoint's fields, and no address:port twice. What a source checks
   * before it offers its state ({@link SourceEndpointRules}); the rest (contiguous priorities,
   * eligible capacity) holds only for the merged cluster.
   */
  static void checkEach(String cluster, List<EndpointSpec> endpoints, TreeSet<Integer> priorities,
      Map<Integer, String> originOfPriority, Findings f) {
    String label = Labels.endpoints(cluster);
    String firstOrigin = endpoints.isEmpty() || endpoints.get(0) == null ? "" : endpoints.get(0).origin();
    // Discovered clusters are named by their source, so their names get the same checks.
    f.name(firstOrigin, label, cluster);
    Map<String, Integer> firstIndexOf = new HashMap<>();
    Map<String, Integer> firstWithHashKey = new HashMap<>();
    for (int i = 0; i < endpoints.size(); i++) {
      EndpointSpec e = endpoints.get(i);
      if (e == null) {
        f.error(Findings.REQUIRED, "", label + "[" + i + "]", "must not be null");
        continue;
      }
      String src = e.origin();
      String at = label + "[" + i + "] (" + e.key() + ")";
      if (e.address() == null) {
        f.error(Findings.REQUIRED, src, Labels.field(at, "address"), "is required");
      } else if (!Addresses.isIpOrHostname(e.address())) {
        f.error(
            "address",
            src,
            Labels.field(at, "address"),
            Addresses.IP_OR_HOSTNAME + ", was " + Findings.quote(e.address()));
      }
      f.range(src, Labels.field(at, "port"), e.port(), 1, 65535);
      f.range(src, Labels.field(at, "weight"), e.weight(), MIN_WEIGHT, MAX_WEIGHT);
      if (e.priority() < 0 || e.priority() > MAX_PRIORITY) {
        f.range(src, Labels.field(at, "priority"), e.priority(), 0, MAX_PRIORITY);
      } else {
        priorities.add(e.priority());
        originOfPriority.putIfAbsent(e.priority(), src);
      }
      if (e.state() == null) {
        f.error(Findings.REQUIRED, src, Labels.field(at, "state"), "is required");
      }
      if (e.capacityRps() != null) {
        AdmissionRules.rpsProblem(e.capacityRps())
            .ifPresent(problem -> f.error(Findings.RANGE, src, Labels.field(at, "capacity.rps"), problem));
      }
      if (!e.hostname().isEmpty()) {
        hostnameProblem(e.hostname())
            .ifPresent(problem -> f.error("endpoint.hostname", src, Labels.field(at, "hostname"), problem));
      }
      if (!e.zoneHints().isEmpty()) {
        zoneHintsProblem(e.zoneHints())
            .ifPresent(problem -> f.error("endpoint.zone-hints", src, Labels.field(at, "zoneHints"), problem));
      }
      if (!e.hashKey().isEmpty()) {
        hashKeyProblem(e.hashKey())
            .ifPresent(problem -> f.error("endpoint.hash-key", src, Labels.field(at, "hashKey"), problem));
        // Two endpoints with one key share every place on the ring: one of them gets no traffic. A
        // DRAINING one is off the ring already: a pod replaced on a new IP drains its old endpoint
        // while the new one takes the same key, which is the point of a key.
        Integer other = e.state() == EndpointState.DRAINING ? null : firstWithHashKey.putIfAbsent(e.hashKey(), i);
        if (other != null) {
          f.error("endpoint.hash-key", src, Labels.field(at, "hashKey"),
              "duplicate hash key " + Findings.quote(e.hashKey()) + " (also at [" + other + "])");
        }
      }
      for (String other : e.additionalAddresses()) {
        additionalAddressProblem(other)
            .ifPresent(problem -> f.error("address", src, Labels.field(at, "additionalAddresses"), problem));
      }
      if (e.address() != null) {
        // Every address an endpoint answers on is its own: one that is another endpoint's (or listed
        // twice) would be two backends, or two weights, for one.
        List<String> keys = e.keys();
        for (int k = 0; k < keys.size(); k++) {
          Integer previous = firstIndexOf.putIfAbsent(keys.get(k).toLowerCase(Locale.ROOT), i);
          if (previous != null) {
            f.error("duplicate.endpoint", src, at, "duplicate endpoint " + keys.get(k)
                + (k == 0 ? "" : " (an additional address)") + " (also at [" + previous + "])");
          }
        }
      }
    }
  }

  /** Envoy rejects a ClusterLoadAssignment whose priorities skip a level. */
  private static void checkContiguous(
      String label, TreeSet<Integer> priorities, Map<Integer, String> originOfPriority, Findings f) {
    if (priorities.isEmpty() || priorities.last() == priorities.size() - 1) {
      return;
    }
    TreeSet<Integer> missing = new TreeSet<>();
    for (int p = 0; p < priorities.last(); p++) {
      if (!priorities.contains(p)) {
        missing.add(p);
      }
    }
    f.error(
        "priority.contiguous",
        originOfPriority.get(priorities.higher(missing.first())),
        Labels.field(label, "priority"),
        "priorities must be contiguous from 0, missing " + join(missing) + " (found " + join(priorities) + ")");
  }

  private static String join(TreeSet<Integer> values) {
    return values.stream().map(String::valueOf).collect(Collectors.joining(", "));
  }
}
