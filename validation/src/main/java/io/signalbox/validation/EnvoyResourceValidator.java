package io.signalbox.validation;

import com.google.protobuf.Any;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.TypeRegistry;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.load_balancing_policies.client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin;
import io.envoyproxy.envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest;
import io.envoyproxy.envoy.extensions.load_balancing_policies.maglev.v3.Maglev;
import io.envoyproxy.envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash;
import io.envoyproxy.envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin;
import io.envoyproxy.envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.envoyproxy.pgv.validate.Validate;
import io.envoyproxy.pgv.validate.Validate.FieldRules;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a translated xDS resource against the protoc-gen-validate rules Envoy enforces on it,
 * read from the descriptors' {@code (validate.rules)}, {@code (validate.required)} and
 * {@code (validate.disabled)}/{@code (validate.ignored)} options rather than copied by hand, so a
 * newer Envoy API jar brings its rules along. A resource Envoy would NACK is caught before it is
 * published.
 *
 * <p>Messages packed in {@code google.protobuf.Any} are unpacked and checked when their type is
 * known to this validator's {@link TypeRegistry} (listener filters, HCM, router, TLS contexts,
 * protocol options, load-balancing policies, plus any added through the constructor); other
 * {@code Any}s are left alone. Rule kinds with no meaning for xDS resources (timestamps, string
 * {@code email}/{@code uri}, bytes {@code pattern}, map {@code no_sparse}) are ignored.
 *
 * <p>Thread-safe; per-descriptor rule lookups are cached, so one instance should be shared.
 */
public final class EnvoyResourceValidator {

  static final String RULE = "envoy.pgv";

  private static final Set<String> WRAPPERS = Set.of(
      "google.protobuf.DoubleValue", "google.protobuf.FloatValue", "google.protobuf.Int64Value",
      "google.protobuf.UInt64Value", "google.protobuf.Int32Value", "google.protobuf.UInt32Value",
      "google.protobuf.BoolValue", "google.protobuf.StringValue", "google.protobuf.BytesValue");

  /** Fields of one message type that need a look: those with rules and those holding messages. */
  private record MessagePlan(boolean skip, List<OneofDescriptor> requiredOneofs, List<FieldPlan> fields) {}

  private record FieldPlan(FieldDescriptor field, FieldRules rules) {}

  private final TypeRegistry registry;
  private final Map<Descriptor, MessagePlan> plans = new ConcurrentHashMap<>();
  private final PgvScalarRules scalars = new PgvScalarRules();

  /** Knows the resource types and typed configs Signalbox's translator emits. */
  public EnvoyResourceValidator() {
    this(List.of());
  }

  /**
   * @param extraTypes further message types that may appear packed in {@code Any}; each brings
   *     every message of its .proto file and the files it imports
   */
  public EnvoyResourceValidator(Collection<Descriptor> extraTypes) {
    TypeRegistry.Builder builder = TypeRegistry.newBuilder()
        .add(Listener.getDescriptor())
        .add(RouteConfiguration.getDescriptor())
        .add(Cluster.getDescriptor())
        .add(ClusterLoadAssignment.getDescriptor())
        .add(HttpConnectionManager.getDescriptor())
        .add(Router.getDescriptor())
        .add(UpstreamTlsContext.getDescriptor())
        .add(DownstreamTlsContext.getDescriptor())
        .add(Secret.getDescriptor())
        .add(HttpProtocolOptions.getDescriptor())
        .add(RoundRobin.getDescriptor())
        .add(LeastRequest.getDescriptor())
        .add(RingHash.getDescriptor())
        .add(Maglev.getDescriptor())
        .add(WrrLocality.getDescriptor())
        .add(ClientSideWeightedRoundRobin.getDescriptor());
    extraTypes.forEach(builder::add);
    this.registry = builder.build();
  }

  /**
   * Every rule the resource breaks, as {@code envoy.pgv} errors whose path is
   * {@code resourceLabel: proto.field.path}. Never throws.
   *
   * @param resourceLabel how the resource is named in messages, e.g. {@code cluster 'payments'}
   */
  public List<Violation> validate(String resourceLabel, Message resource) {
    List<Violation> out = new ArrayList<>();
    String label = resourceLabel == null ? "" : resourceLabel;
    PgvScalarRules.Sink sink = (path, message) ->
        out.add(Violation.error(RULE, "", path.isEmpty() ? label : label + ": " + path, message));
    if (resource == null) {
      sink.add("", "resource is required");
      return out;
    }
    checkResourceName(resource, out, label);
    walk("", resource, sink);
    return out;
  }

  /**
   * xDS keys state-of-the-world responses by resource name, and Envoy drops a nameless listener
   * or cluster from a response, so an empty name is as fatal as a PGV rule though none says so.
   */
  private static void checkResourceName(Message resource, List<Violation> out, String label) {
    FieldDescriptor name = resource.getDescriptorForType().findFieldByName("name");
    if (name != null
        && name.getType() == FieldDescriptor.Type.STRING
        && !name.isRepeated()
        && !name.getOptions().hasExtension(Validate.rules)
        && ((String) resource.getField(name)).isEmpty()) {
      out.add(Violation.error("envoy.resource-name", "", label + ": name", "is required"));
    }
  }

  private MessagePlan plan(Descriptor type) {
    return plans.computeIfAbsent(type, EnvoyResourceValidator::buildPlan);
  }

  private static MessagePlan buildPlan(Descriptor type) {
    boolean skip = type.getOptions().getExtension(Validate.disabled) || type.getOptions().getExtension(Validate.ignored);
    List<OneofDescriptor> required = new ArrayList<>();
    for (OneofDescriptor oneof : type.getRealOneofs()) {
      if (oneof.getOptions().getExtension(Validate.required)) {
        required.add(oneof);
      }
    }
    List<FieldPlan> fields = new ArrayList<>();
    for (FieldDescriptor field : type.getFields()) {
      boolean hasRules = field.getOptions().hasExtension(Validate.rules);
      if (hasRules || field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        fields.add(new FieldPlan(field, hasRules ? field.getOptions().getExtension(Validate.rules) : null));
      }
    }
    return new MessagePlan(skip, List.copyOf(required), List.copyOf(fields));
  }

  private void walk(String path, Message message, PgvScalarRules.Sink sink) {
    MessagePlan plan = plan(message.getDescriptorForType());
    if (plan.skip()) {
      return;
    }
    for (OneofDescriptor oneof : plan.requiredOneofs()) {
      if (!message.hasOneof(oneof)) {
        sink.add(join(path, oneof.getName()), "is required (set one of " + oneofFields(oneof) + ")");
      }
    }
    for (FieldPlan fp : plan.fields()) {
      FieldDescriptor field = fp.field();
      FieldRules rules = fp.rules() == null ? FieldRules.getDefaultInstance() : fp.rules();
      String fieldPath = join(path, field.getName());
      if (field.isMapField()) {
        checkMap(fieldPath, message, field, rules, sink);
      } else if (field.isRepeated()) {
        checkRepeated(fieldPath, message, field, rules, sink);
      } else if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        if (message.hasField(field)) {
          checkMessage(fieldPath, (Message) message.getField(field), rules, sink);
        } else if (requiresPresence(rules) && field.getRealContainingOneof() == null) {
          // A oneof member's rules bind only when that member is the one set (PGV semantics).
          sink.add(fieldPath, "is required");
        }
      } else if (!field.hasPresence() || message.hasField(field)) {
        // Plain proto3 scalars are checked even at their default: that is how {min_len: 1} bites.
        scalars.check(fieldPath, field, message.getField(field), rules, sink);
      }
    }
  }

  private static boolean requiresPresence(FieldRules rules) {
    return (rules.hasMessage() && rules.getMessage().getRequired())
        || (rules.hasDuration() && rules.getDuration().getRequired())
        || (rules.hasAny() && rules.getAny().getRequired())
        || (rules.hasTimestamp() && rules.getTimestamp().getRequired());
  }

  private void checkMessage(String path, Message value, FieldRules rules, PgvScalarRules.Sink sink) {
    Descriptor type = value.getDescriptorForType();
    String typeName = type.getFullName();
    if (WRAPPERS.contains(typeName)) {
      FieldDescriptor wrapped = type.findFieldByName("value");
      scalars.check(path, wrapped, value.getField(wrapped), rules, sink);
      return;
    }
    if (typeName.equals("google.protobuf.Duration")) {
      if (rules.hasDuration()) {
        PgvDurationRules.check(path, value, rules.getDuration(), sink);
      }
      return;
    }
    if (typeName.equals("google.protobuf.Any")) {
      checkAny(path, value, rules, sink);
      return;
    }
    if (rules.hasMessage() && rules.getMessage().getSkip()) {
      return;
    }
    walk(path, value, sink);
  }

  private void checkAny(String path, Message any, FieldRules rules, PgvScalarRules.Sink sink) {
    String typeUrl = (String) any.getField(any.getDescriptorForType().findFieldByName("type_url"));
    if (rules.hasAny()) {
      Validate.AnyRules r = rules.getAny();
      if (r.getInCount() > 0 && !r.getInList().contains(typeUrl)) {
        sink.add(path, "type must be one of " + r.getInList() + ", was '" + typeUrl + "'");
      }
      if (r.getNotInList().contains(typeUrl)) {
        sink.add(path, "type must not be one of " + r.getNotInList() + ", was '" + typeUrl + "'");
      }
    }
    Descriptor packed;
    try {
      packed = registry.getDescriptorForTypeUrl(typeUrl);
    } catch (InvalidProtocolBufferException e) {
      sink.add(path, "has a malformed type URL '" + typeUrl + "'");
      return;
    }
    if (packed == null) {
      return; // not a type this validator knows; Envoy will judge it
    }
    Any raw = any instanceof Any a ? a : Any.newBuilder().mergeFrom(any).build();
    try {
      walk(path, DynamicMessage.parseFrom(packed, raw.getValue()), sink);
    } catch (InvalidProtocolBufferException e) {
      sink.add(path, "cannot be decoded as " + packed.getFullName() + ": " + e.getMessage());
    }
  }

  private void checkRepeated(String path, Message message, FieldDescriptor field, FieldRules rules, PgvScalarRules.Sink sink) {
    int count = message.getRepeatedFieldCount(field);
    Validate.RepeatedRules r = rules.getRepeated();
    if (rules.hasRepeated() && !(r.getIgnoreEmpty() && count == 0)) {
      if (r.hasMinItems() && count < r.getMinItems()) {
        sink.add(path, "must have at least " + r.getMinItems() + " item(s)");
      }
      if (r.hasMaxItems() && count > r.getMaxItems()) {
        sink.add(path, "must have at most " + r.getMaxItems() + " item(s), was " + count);
      }
      if (r.getUnique() && field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        Map<Object, Integer> first = new HashMap<>();
        for (int i = 0; i < count; i++) {
          Integer previous = first.putIfAbsent(message.getRepeatedField(field, i), i);
          if (previous != null) {
            sink.add(path + "[" + i + "]", "must be unique (also at [" + previous + "])");
          }
        }
      }
    }
    FieldRules items = r.getItems();
    boolean isMessage = field.getJavaType() == FieldDescriptor.JavaType.MESSAGE;
    if (!isMessage && !r.hasItems()) {
      return;
    }
    for (int i = 0; i < count; i++) {
      Object item = message.getRepeatedField(field, i);
      String itemPath = path + "[" + i + "]";
      if (isMessage) {
        checkMessage(itemPath, (Message) item, items, sink);
      } else {
        scalars.check(itemPath, field, item, items, sink);
      }
    }
  }

  private void checkMap(String path, Message message, FieldDescriptor field, FieldRules rules, PgvScalarRules.Sink sink) {
    int count = message.getRepeatedFieldCount(field);
    Validate.MapRules r = rules.getMap();
    if (rules.hasMap() && !(r.getIgnoreEmpty() && count == 0)) {
      if (r.hasMinPairs() && count < r.getMinPairs()) {
        sink.add(path, "must have at least " + r.getMinPairs() + " pair(s)");
      }
      if (r.hasMaxPairs() && count > r.getMaxPairs()) {
        sink.add(path, "must have at most " + r.getMaxPairs() + " pair(s), was " + count);
      }
    }
    Descriptor entryType = field.getMessageType();
    FieldDescriptor keyField = entryType.findFieldByNumber(1);
    FieldDescriptor valueField = entryType.findFieldByNumber(2);
    boolean messageValues = valueField.getJavaType() == FieldDescriptor.JavaType.MESSAGE;
    if (!messageValues && !r.hasKeys() && !r.hasValues()) {
      return;
    }
    for (int i = 0; i < count; i++) {
      Message entry = (Message) message.getRepeatedField(field, i);
      Object key = entry.getField(keyField);
      String entryPath = path + "['" + key + "']";
      if (r.hasKeys()) {
        scalars.check(entryPath + " (key)", keyField, key, r.getKeys(), sink);
      }
      Object value = entry.getField(valueField);
      if (messageValues) {
        checkMessage(entryPath, (Message) value, r.getValues(), sink);
      } else if (r.hasValues()) {
        scalars.check(entryPath, valueField, value, r.getValues(), sink);
      }
    }
  }

  private static String join(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  private static String oneofFields(OneofDescriptor oneof) {
    return String.join(", ", oneof.getFields().stream().map(FieldDescriptor::getName).toList());
  }
}
