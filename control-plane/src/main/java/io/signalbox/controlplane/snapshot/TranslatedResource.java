package io.signalbox.controlplane.snapshot;

import com.google.protobuf.Message;
import java.util.Objects;
import java.util.Set;

/**
 * One xDS resource as translation produced it, before it is versioned and sealed into a snapshot.
 *
 * @param references names of resources of the child type this one needs: a listener names route
 *     configs, a route config names clusters, an EDS cluster names its ClusterLoadAssignment
 */
public record TranslatedResource(XdsType type, String name, Message message, Set<String> references) {
  public TranslatedResource {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(message, "message");
    references = Set.copyOf(references);
  }
}
