package io.signalbox.controlplane.admission;

import io.signalbox.model.EndpointSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;

/**
 * What a cluster's eligible endpoints (READY and DEGRADED in the epoch) can serve together: the sum
 * of each one's declared capacity, or the cluster's default for one that declares none. One endpoint
 * whose capacity nobody declared makes the whole unknown, and an unknown capacity is never shed
 * against: a guess would drop real calls.
 */
public sealed interface EligibleCapacity {

  /** Requests per second the eligible endpoints serve together, and how many they are. */
  record Known(long rps, int endpoints) implements EligibleCapacity {}

  /** Why the capacity cannot be summed (names the endpoints without one). */
  record Unknown(String reason) implements EligibleCapacity {}

  static EligibleCapacity of(Collection<EndpointSpec> endpoints, OptionalInt clusterDefault) {
    long rps = 0;
    int eligible = 0;
    List<String> undeclared = new ArrayList<>();
    for (EndpointSpec e : endpoints) {
      if (!e.state().eligible()) {
        continue;
      }
      eligible++;
      if (e.capacityRps() != null) {
        rps += e.capacityRps();
      } else if (clusterDefault.isPresent()) {
        rps += clusterDefault.getAsInt();
      } else {
        undeclared.add(e.key());
      }
    }
    if (!undeclared.isEmpty()) {
      undeclared.sort(null);
      String some = String.join(", ", undeclared.subList(0, Math.min(3, undeclared.size())))
          + (undeclared.size() > 3 ? " and " + (undeclared.size() - 3) + " more" : "");
      return new Unknown("capacity unknown: " + some + " declare(s) none and the cluster has no capacity");
    }
    return new Known(rps, eligible);
  }
}
