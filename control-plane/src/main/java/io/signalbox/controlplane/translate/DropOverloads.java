package io.signalbox.controlplane.translate;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The operator's drops as EDS {@code ClusterLoadAssignment.policy.drop_overloads}: per category, the
 * share of calls a client drops before picking an endpoint (grpc-java and grpc-js fail such a call
 * UNAVAILABLE "Dropped: &lt;category&gt;" and count it in their load reports). Clients apply the
 * categories in the order sent, each to the calls the previous ones let through.
 *
 * <p>Applied after translation and before the quarantine: an assignment a client refuses because of
 * its drops is quarantined like any refused version, and served as the last safe epoch had it.
 */
public final class DropOverloads {

  private DropOverloads() {}

  /** One category's share, in parts per million (FractionalPercent MILLION, so nothing is rounded). */
  public record Drop(String category, int perMillion) {}

  /**
   * {@code translated} with each named cluster's assignment carrying its drops; the very list when
   * there are none (so translation's reuse of unchanged resources is kept).
   */
  public static List<TranslatedResource> apply(List<TranslatedResource> translated, Map<String, List<Drop>> byCluster) {
    if (byCluster.isEmpty()) {
      return translated;
    }
    List<TranslatedResource> out = new ArrayList<>(translated.size());
    for (TranslatedResource r : translated) {
      List<Drop> drops = r.type() == XdsType.ENDPOINT ? byCluster.get(r.name()) : null;
      if (drops == null || !(r.message() instanceof ClusterLoadAssignment cla)) {
        out.add(r);
        continue;
      }
      out.add(new TranslatedResource(r.type(), r.name(), of(cla, drops), r.references()));
    }
    return out;
  }

  /** {@code cla} with exactly {@code drops} as its drop_overloads, in order. */
  public static ClusterLoadAssignment of(ClusterLoadAssignment cla, List<Drop> drops) {
    ClusterLoadAssignment.Policy.Builder policy = cla.getPolicy().toBuilder().clearDropOverloads();
    for (Drop d : drops) {
      policy.addDropOverloads(ClusterLoadAssignment.Policy.DropOverload.newBuilder()
          .setCategory(d.category())
          .setDropPercentage(FractionalPercent.newBuilder().setNumerator(d.perMillion())
              .setDenominator(FractionalPercent.DenominatorType.MILLION)));
    }
    return cla.toBuilder().setPolicy(policy).build();
  }
}
