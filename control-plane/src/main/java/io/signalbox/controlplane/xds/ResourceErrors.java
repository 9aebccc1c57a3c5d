package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.service.discovery.v3.ResourceError;
import io.envoyproxy.envoy.service.discovery.v3.ResourceName;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-resource errors (xRFC TP3, gRFC A88): what a response says, in {@code resource_errors},
 * about a name the client subscribed to and is not sent. {@code NOT_FOUND} for a name the epoch
 * does not have, so a client learns at once instead of waiting out its does-not-exist timer;
 * {@code UNAVAILABLE} with the reason for a resource held back from this client (it NACKed that
 * version and holds no other). An entry never names a resource the same response carries.
 *
 * <p>Each error is reported once while it stands: a subscription keeps the errors it reported
 * ({@link #newSince}) and reports again only what is new or changed; a name that is sent again
 * drops out. Clients that do not read the field ignore it (protobuf skips unknown fields the same
 * way, and every current client's generated types have it).
 */
final class ResourceErrors {

  /** google.rpc.Code values, as the field carries them. */
  static final int NOT_FOUND = 5;
  static final int UNAVAILABLE = 14;

  private ResourceErrors() {}

  /** Worded the same in every epoch, so that it is reported once while it stands. */
  static ResourceError notFound(XdsType type, String name) {
    return error(name, NOT_FOUND, "Signalbox serves no " + type.name() + " named '" + name + "'");
  }

  /** @param nack the client's last NACK of this type, whose message says why it refused */
  static ResourceError heldBack(XdsType type, String name, String version, NackStatus nack) {
    return error(name, UNAVAILABLE, type.name() + " '" + name + "' version " + version
        + " is held back from this client: it rejected that version"
        + (nack == null ? "" : " (NACK: " + nack.message() + ")")
        + "; it is sent a new version when there is one");
  }

  private static ResourceError error(String name, int code, String message) {
    return ResourceError.newBuilder()
        .setResourceName(ResourceName.newBuilder().setName(name))
        .setErrorDetail(com.google.rpc.Status.newBuilder().setCode(code).setMessage(message))
        .build();
  }

  /** {@code errors} with {@code error} for {@code name}; a new map the first time (most have none). */
  static Map<String, ResourceError> add(Map<String, ResourceError> errors, String name, ResourceError error) {
    Map<String, ResourceError> next = errors.isEmpty() ? new TreeMap<>() : errors;
    next.put(name, error);
    return next;
  }

  static Map<String, ResourceError> without(Map<String, ResourceError> errors, String name) {
    Map<String, ResourceError> next = new TreeMap<>(errors);
    next.remove(name);
    return next.isEmpty() ? Map.of() : next;
  }

  /** The errors of {@code now} not reported as they are in {@code before}, in name order. */
  static List<ResourceError> newSince(Map<String, ResourceError> before, Map<String, ResourceError> now) {
    if (now.isEmpty()) {
      return List.of();
    }
    List<ResourceError> fresh = new ArrayList<>();
    now.forEach((name, error) -> {
      if (!error.equals(before.get(name))) {
        fresh.add(error);
      }
    });
    return fresh.isEmpty() ? List.of() : Collections.unmodifiableList(fresh);
  }
}
