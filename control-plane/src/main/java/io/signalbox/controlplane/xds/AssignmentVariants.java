package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.TypeResources;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.translate.DrainingVariant;
import io.signalbox.controlplane.translate.OneDropCategory;
import io.signalbox.controlplane.translate.ZoneView;
import io.signalbox.validation.DrainingAs;
import java.util.Map;
import java.util.HashMap;

/**
 * The endpoints (EDS) of a snapshot as the clients of one {@link Shape} see them: those that get
 * DRAINING endpoints another way ({@link DrainingVariant}), and those that honour one drop category
 * ({@link OneDropCategory}, Envoy), and those of a zone that gets its own endpoints first ({@link
 * ZoneView}): one instance per shape other than {@link Shape#OWN}, shared by
 * all such streams. Each variant resource carries the version of its own content, so a version string
 * names one content whichever clients it goes to; an assignment with nothing DRAINING is the
 * snapshot's own instance (same version, same bytes). The type's {@code version_info} stays the
 * snapshot's: it names the epoch, and the variant is a function of that epoch's content.
 *
 * <p>Built once per snapshot (then only the names changed since the parent) on the first stream
 * that needs it, under this object's lock; a stream's own lock may be held, never the reverse.
 */
final class AssignmentVariants {

  /**
   * What a client needs changed in an assignment.
   *
   * @param drainingAs how DRAINING endpoints are sent to it
   * @param oneDropCategory whether it honours only one {@code drop_overloads} category
   * @param zone the zone its node locality names, whose preferred endpoints it gets first
   *     ({@link ZoneView}); empty for none
   */
  record Shape(DrainingAs drainingAs, boolean oneDropCategory, String zone) {
    /** The snapshot's own assignments: no variant. */
    static final Shape OWN = new Shape(DrainingAs.DRAINING, false, "");

    Shape {
      zone = zone == null ? "" : zone;
    }

    Shape(DrainingAs drainingAs, boolean oneDropCategory) {
      this(drainingAs, oneDropCategory, "");
    }

    /** Every shape of no zone that needs a variant; a zone's are made when a client of it comes. */
    static java.util.List<Shape> variants() {
      java.util.List<Shape> out = new java.util.ArrayList<>();
      for (DrainingAs as : DrainingAs.values()) {
        for (boolean one : new boolean[] {false, true}) {
          Shape shape = new Shape(as, one);
          if (!shape.equals(OWN)) {
            out.add(shape);
          }
        }
      }
      return out;
    }
  }

  private final Shape shape;
  // Variant resources by the snapshot resource's name and version (its content): a resource
  // unchanged across epochs maps to the same variant without being transformed and serialized
  // again. Pruned to the current snapshot's resources when it outgrows them.
  private Map<String, XdsResource> variants = new HashMap<>();
  // The variants of the last few snapshots by epoch: canary waves are served different epochs at
  // once, and the newest is built from its parent's.
  private final Map<Long, Built> recent = new java.util.LinkedHashMap<>();
  private static final int RECENT = 4;

  private record Built(Snapshot snapshot, TypeResources resources) {}

  AssignmentVariants(DrainingAs as) {
    this(new Shape(as, false));
  }

  AssignmentVariants(Shape shape) {
    if (shape.equals(Shape.OWN)) {
      throw new IllegalArgumentException("DRAINING needs no variant");
    }
    this.shape = shape;
  }

  DrainingAs as() {
    return shape.drainingAs();
  }

  Shape shape() {
    return shape;
  }

  /** {@code snapshot}'s EDS resources as these clients get them. */
  synchronized TypeResources resources(Snapshot snapshot) {
    Built known = recent.get(snapshot.epoch());
    if (known != null && known.snapshot() == snapshot) {
      return known.resources();
    }
    TypeResources own = snapshot.resources(XdsType.ENDPOINT);
    Built parent = recent.get(snapshot.parentEpoch());
    TypeResources mapped = own.mapped(this::variant, parent == null ? null : parent.resources());
    recent.put(snapshot.epoch(), new Built(snapshot, mapped));
    if (recent.size() > RECENT) {
      recent.remove(recent.keySet().iterator().next());
    }
    if (variants.size() > 2 * own.size() + 1024) {
      Map<String, XdsResource> kept = new HashMap<>();
      own.byName().values().forEach(r -> kept.put(key(r), mapped.get(r.name())));
      variants = kept;
    }
    return mapped;
  }

  private XdsResource variant(XdsResource r) {
    XdsResource known = variants.get(key(r));
    if (known != null) {
      return known;
    }
    ClusterLoadAssignment cla = assignment(r);
    ClusterLoadAssignment changed = cla == null ? null
        : DrainingVariant.of(ZoneView.of(cla, shape.zone()), shape.drainingAs());
    if (changed != null && shape.oneDropCategory()) {
      changed = OneDropCategory.of(changed);
    }
    XdsResource out = changed == null || changed == cla ? r : r.withMessage(changed);
    variants.put(key(r), out);
    return out;
  }

  private static String key(XdsResource r) {
    return r.name() + '@' + r.version();
  }

  private static ClusterLoadAssignment assignment(XdsResource r) {
    return r.hasContent() ? r.content(ClusterLoadAssignment.class) : null;
  }
}
