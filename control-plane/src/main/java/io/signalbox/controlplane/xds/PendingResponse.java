package io.signalbox.controlplane.xds;

import io.signalbox.controlplane.snapshot.XdsResource;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A response computed for a {@link Subscription} and not yet answered by the client. */
final class PendingResponse {
  final long epoch;
  final String version;
  final Map<String, XdsResource> resources;
  final List<String> removed;
  final Instant at;
  // Whether accepting this response means holding exactly what `epoch` gives this client: false
  // when some resource is offered at the version the client holds because it refused the
  // snapshot's version (a standing NACK). Accepting such an offer is not holding the epoch.
  final boolean exact;
  String nonce;

  PendingResponse(long epoch, String version, Map<String, XdsResource> resources, List<String> removed, Instant at,
      boolean exact) {
    this.epoch = epoch;
    this.version = version;
    this.resources = resources;
    this.removed = removed;
    this.at = at;
    this.exact = exact;
  }

  /** The epoch a version string names: {@code "42"} and {@code "42.3"} both name epoch 42. */
  static long versionEpoch(String version) {
    int end = 0;
    while (end < version.length() && Character.isDigit(version.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Long.parseLong(version.substring(0, end));
  }
}
