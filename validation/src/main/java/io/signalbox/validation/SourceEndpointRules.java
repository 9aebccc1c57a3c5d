package io.signalbox.validation;

import io.signalbox.model.EndpointSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The endpoint rules one source's state must meet before it is offered, the same rules (the same
 * code) the validator applies to the merged state: a cluster's name, each endpoint's address, port,
 * weight, priority and state, and no address:port twice in a cluster.
 *
 * <p>Why a source checks at all: the merge unions sources and keeps one entry per address:port, so
 * a duplicate inside one endpoint file never reached the validator and the first entry was served,
 * while {@code signalbox validate} refused the same file (issue 29). A source that finds any of
 * these refuses its whole new state and keeps its last good one. Rules that hold only for the merged
 * cluster (contiguous priorities, eligible capacity) stay the validator's.
 */
public final class SourceEndpointRules {

  private SourceEndpointRules() {}

  /** Every error in {@code cluster}'s list as one source reports it; empty when it may be offered. */
  public static List<Violation> check(String cluster, List<EndpointSpec> endpoints) {
    Findings f = new Findings();
    EndpointRules.checkEach(cluster, endpoints, new TreeSet<>(), new HashMap<>(), f);
    return f.violations().stream().filter(Violation::isError).toList();
  }

  /**
   * How {@link #check}'s violations begin their path for the endpoint at {@code index} of {@code
   * cluster}'s list, so a caller can tell which endpoint a violation is about.
   */
  public static String pathOf(String cluster, int index) {
    return Labels.endpoints(cluster) + "[" + index + "]";
  }

  /** {@link #check} over every cluster of a source's state, in its order. */
  public static List<Violation> check(Map<String, List<EndpointSpec>> endpoints) {
    return endpoints.entrySet().stream().flatMap(e -> check(e.getKey(), e.getValue()).stream()).toList();
  }
}
