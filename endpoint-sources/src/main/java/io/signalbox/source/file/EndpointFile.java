package io.signalbox.source.file;

import io.signalbox.model.CapacitySpec;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.yaml.Parsed;
import io.signalbox.yaml.StrictYaml;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The static endpoint file:
 *
 * <pre>
 * clusters:
 *   greeter:
 *     - { address: 127.0.0.1, port: 50051, zone: a, weight: 1, state: READY, capacity: { rps: 100 }, hashKey: g-1 }
 * </pre>
 *
 * Structure only: ranges (ports, weights) and uniqueness are the validator's, so every endpoint is
 * kept as written for it to judge.
 */
public final class EndpointFile {

  /** The file as written; a record per level so that unknown keys are errors. */
  record Document(Map<String, List<Entry>> clusters) {}

  record Entry(String address, Integer port, String zone, Integer weight, Integer priority, EndpointState state,
      CapacitySpec capacity, String hashKey, String hostname, List<String> additionalAddresses) {}

  private EndpointFile() {}

  /**
   * Reads an endpoint file.
   *
   * @param sourceName the file's path; violations name it and endpoints get origin {@code file:<sourceName>}
   * @return cluster name -> endpoints in file order, or every problem found
   */
  public static Parsed<Map<String, List<EndpointSpec>>> parse(String text, String sourceName) {
    String origin = "file:" + sourceName;
    return StrictYaml.parse(text, sourceName, Document.class).map(document -> toEndpoints(document, origin));
  }

  private static Map<String, List<EndpointSpec>> toEndpoints(Document document, String origin) {
    Map<String, List<EndpointSpec>> out = new LinkedHashMap<>();
    if (document.clusters() == null) {
      return out;
    }
    document.clusters().forEach((cluster, entries) -> {
      List<EndpointSpec> endpoints = new ArrayList<>();
      if (entries != null) {
        for (Entry e : entries) {
          endpoints.add(
              new EndpointSpec(
                  e.address(),
                  e.port() == null ? 0 : e.port(),
                  e.zone(),
                  e.weight() == null ? EndpointSpec.DEFAULT_WEIGHT : e.weight(),
                  e.priority() == null ? 0 : e.priority(),
                  e.state(),
                  origin,
                  capacityRps(e.capacity()),
                  e.hashKey(),
                  "",
                  e.hostname(),
                  e.additionalAddresses()));
        }
      }
      out.put(cluster, List.copyOf(endpoints));
    });
    return out;
  }

  /**
   * {@code capacity: {}} declares a capacity without saying how much: kept as 0, which the
   * validator refuses, rather than dropped, which would silently fall back to the cluster's.
   */
  private static Integer capacityRps(CapacitySpec capacity) {
    if (capacity == null) {
      return null;
    }
    return capacity.rps() == null ? 0 : capacity.rps();
  }
}
