package io.signalbox.controlplane.views;

import com.google.protobuf.Any;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Duration;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import com.google.protobuf.util.Durations;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * One field that differs between two versions of a cluster, route configuration or listener, as
 * Envoy's proto names it: {@code ~ CLUSTER/demo-cluster connect_timeout 1s -> 2s}. A bare
 * {@code ~ CLUSTER/demo-cluster} said something changed and not what (issue 42); endpoints have
 * their own, {@link EndpointFieldChange}.
 *
 * @param resource the changed resource, {@code TYPE/name}
 * @param field the field's path, e.g. {@code virtual_hosts[0].routes[1].route.cluster}
 * @param from the old value, {@code (unset)} when it had none
 * @param to the new value, {@code (unset)} when it has none
 */
public record ResourceFieldChange(String resource, String field, String from, String to) {

  static final String UNSET = "(unset)";
  /** A whole message as a value (one added to a list, say) is cut here: the path says where to look. */
  private static final int MAX_VALUE = 120;

  /** {@code connect_timeout 1s -> 2s} */
  String text() {
    return field + " " + from + " -> " + to;
  }

  /** Every field that differs; nothing for endpoints (see {@link EndpointFieldChange}). */
  static List<ResourceFieldChange> between(XdsType type, XdsResource before, XdsResource after) {
    Class<? extends Message> kind = switch (type) {
      case CLUSTER -> Cluster.class;
      case LISTENER -> Listener.class;
      case ROUTE -> RouteConfiguration.class;
      case ENDPOINT -> null;
    };
    List<ResourceFieldChange> out = new ArrayList<>();
    if (kind != null) {
      compare(type + "/" + after.name(), "", before.content(kind), after.content(kind), out);
    }
    return out;
  }

  private static void compare(String resource, String path, Message a, Message b, List<ResourceFieldChange> out) {
    TreeSet<FieldDescriptor> fields = new TreeSet<>(Comparator.comparingInt(FieldDescriptor::getNumber));
    fields.addAll(a.getAllFields().keySet());
    fields.addAll(b.getAllFields().keySet());
    for (FieldDescriptor f : fields) {
      String at = path.isEmpty() ? f.getName() : path + "." + f.getName();
      if (f.isRepeated()) {
        List<?> x = (List<?>) a.getField(f);
        List<?> y = (List<?>) b.getField(f);
        if (f.getJavaType() != FieldDescriptor.JavaType.MESSAGE || f.isMapField()) {
          add(out, resource, at, x.isEmpty() ? UNSET : text(x), y.isEmpty() ? UNSET : text(y));
          continue;
        }
        for (int i = 0; i < Math.max(x.size(), y.size()); i++) {
          String item = at + "[" + i + "]";
          if (i >= x.size()) {
            add(out, resource, item, UNSET, text(y.get(i)));
          } else if (i >= y.size()) {
            add(out, resource, item, text(x.get(i)), UNSET);
          } else {
            nested(resource, item, (Message) x.get(i), (Message) y.get(i), out);
          }
        }
      } else if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        nested(resource, at, a.hasField(f) ? (Message) a.getField(f) : null,
            b.hasField(f) ? (Message) b.getField(f) : null, out);
      } else {
        add(out, resource, at, scalar(a, f), scalar(b, f));
      }
    }
  }

  /** A message field: its own fields, unless it is a value in itself (a duration, an Any) or came or went. */
  private static void nested(String resource, String at, Message a, Message b, List<ResourceFieldChange> out) {
    if (a instanceof Any x && b instanceof Any y) {
      // Packed config (a typed_config): its type, and that its contents moved, is what can be said here.
      if (!x.equals(y)) {
        out.add(new ResourceFieldChange(resource, at, x.getTypeUrl(),
            y.getTypeUrl() + (x.getTypeUrl().equals(y.getTypeUrl()) ? " (contents changed)" : "")));
      }
    } else if (a == null || b == null || a instanceof Duration || a instanceof Any
        || !a.getDescriptorForType().equals(b.getDescriptorForType())) {
      add(out, resource, at, a == null ? UNSET : text(a), b == null ? UNSET : text(b));
    } else {
      compare(resource, at, a, b, out);
    }
  }

  /** A proto3 scalar without presence is its default when not set: {@code lb_policy ROUND_ROBIN}, not unset. */
  private static String scalar(Message m, FieldDescriptor f) {
    return m.hasField(f) || !f.hasPresence() ? text(m.getField(f)) : UNSET;
  }

  private static void add(List<ResourceFieldChange> out, String resource, String at, String from, String to) {
    if (!Objects.equals(from, to)) {
      out.add(new ResourceFieldChange(resource, at, from, to));
    }
  }

  private static String text(Object value) {
    String text;
    if (value instanceof Duration d) {
      text = Durations.toString(d);
    } else if (value instanceof Any any) {
      text = any.getTypeUrl();
    } else if (value instanceof Message m) {
      text = "{" + TextFormat.shortDebugString(m) + "}";
    } else if (value instanceof List<?> list) {
      text = list.stream().map(ResourceFieldChange::text).toList().toString();
    } else if (value instanceof com.google.protobuf.ByteString bytes) {
      text = bytes.size() + " bytes";
    } else {
      text = String.valueOf(value);
    }
    return text.length() <= MAX_VALUE ? text : text.substring(0, MAX_VALUE - 1) + "…";
  }
}
