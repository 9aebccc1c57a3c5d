package io.signalbox.source.registry;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.model.EndpointSpec;
import io.signalbox.validation.Addresses;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a registration asks for, checked field by field before anything is written: the cluster
 * and endpoint from the request path, zone, weight and metadata from its JSON body (all optional).
 *
 * @param address without brackets
 */
public record Registration(String cluster, String address, int port, String zone, int weight,
    Map<String, String> metadata) {

  public static final int MAX_CLUSTER_LENGTH = 255;
  public static final int MAX_ZONE_LENGTH = 63;
  public static final int MAX_METADATA_ENTRIES = 16;
  public static final int MAX_METADATA_LENGTH = 256;
  public static final int MAX_WEIGHT = 10_000;
  public static final List<String> FIELDS = List.of("zone", "weight", "metadata");

  /** The validator's cluster-name rule (its {@code Findings.NAME_CHARS}); DESIGN §6: a bad name is a 400. */
  private static final Pattern NAME_CHARS = Pattern.compile("[A-Za-z0-9._\\-/:]+");

  public Registration {
    zone = zone == null ? "" : zone;
    metadata = Map.copyOf(metadata == null ? Map.of() : metadata);
  }

  /** The outcome of {@link #parse}: a registration, or the first field that is wrong and why. */
  public sealed interface Parsed {}

  public record Ok(Registration registration) implements Parsed {}

  /**
   * @param field the offending field, e.g. {@code weight} or {@code metadata.team}
   * @param code stable, for tooling: {@code bad_cluster}, {@code bad_endpoint}, {@code bad_address},
   *     {@code bad_port}, {@code bad_json}, {@code unknown_field}, {@code bad_zone}, {@code bad_weight},
   *     {@code bad_metadata}
   */
  public record Invalid(String field, String code, String message) implements Parsed {}

  /**
   * @param endpoint {@code address:port} as in the path, IPv6 in brackets
   * @param body the JSON body, or null when the request had none (every field takes its default)
   */
  public static Parsed parse(String cluster, String endpoint, JsonNode body) {
    if (cluster == null || cluster.isEmpty() || !NAME_CHARS.matcher(cluster).matches()) {
      return new Invalid("cluster", "bad_cluster",
          "cluster may contain only letters, digits and . _ - / :, was " + quote(cluster));
    }
    if (cluster.length() > MAX_CLUSTER_LENGTH) {
      return new Invalid("cluster", "bad_cluster",
          "cluster must be at most " + MAX_CLUSTER_LENGTH + " characters, was " + cluster.length());
    }
    int colon = endpoint == null ? -1 : endpoint.lastIndexOf(':');
    if (colon <= 0) {
      return new Invalid("endpoint", "bad_endpoint",
          "expected address:port (IPv6 as [::1]:8080), was " + quote(endpoint));
    }
    String address = endpoint.substring(0, colon);
    String rawPort = endpoint.substring(colon + 1);
    boolean bracketed = address.startsWith("[") && address.endsWith("]");
    if (bracketed) {
      address = address.substring(1, address.length() - 1);
    }
    if (bracketed ? !Addresses.isIpv6(address) : !(Addresses.isIpv4(address) || Addresses.isHostname(address))) {
      return new Invalid("address", "bad_address",
          "address must be an IPv4 address, an IPv6 address in brackets or a DNS name, was "
              + quote(endpoint.substring(0, colon)));
    }
    int port = port(rawPort);
    if (port < 1) {
      return new Invalid("port", "bad_port", "port must be a number from 1 to 65535, was " + quote(rawPort));
    }
    if (body == null || body.isNull()) {
      return new Ok(new Registration(cluster, address, port, "", EndpointSpec.DEFAULT_WEIGHT, Map.of()));
    }
    if (!body.isObject()) {
      return new Invalid("body", "bad_json", "the request body must be a JSON object, was " + kind(body));
    }
    for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELDS.contains(name)) {
        return new Invalid(name, "unknown_field",
            "unknown field '" + name + "' in the request body; known fields: " + FIELDS);
      }
    }
    JsonNode zoneNode = body.path("zone");
    String zone = "";
    if (!zoneNode.isMissingNode() && !zoneNode.isNull()) {
      if (!zoneNode.isTextual()) {
        return new Invalid("zone", "bad_zone", "zone must be a string, was " + kind(zoneNode));
      }
      zone = zoneNode.textValue();
      if (zone.length() > MAX_ZONE_LENGTH) {
        return new Invalid("zone", "bad_zone",
            "zone must be at most " + MAX_ZONE_LENGTH + " characters, was " + zone.length());
      }
    }
    JsonNode weightNode = body.path("weight");
    int weight = EndpointSpec.DEFAULT_WEIGHT;
    if (!weightNode.isMissingNode() && !weightNode.isNull()) {
      if (!weightNode.isIntegralNumber() || !weightNode.canConvertToInt()
          || weightNode.intValue() < 1 || weightNode.intValue() > MAX_WEIGHT) {
        return new Invalid("weight", "bad_weight",
            "weight must be an integer from 1 to " + MAX_WEIGHT + ", was " + weightNode);
      }
      weight = weightNode.intValue();
    }
    JsonNode metadataNode = body.path("metadata");
    Map<String, String> metadata = new LinkedHashMap<>();
    if (!metadataNode.isMissingNode() && !metadataNode.isNull()) {
      Invalid bad = metadata(metadataNode, metadata);
      if (bad != null) {
        return bad;
      }
    }
    return new Ok(new Registration(cluster, address, port, zone, weight, metadata));
  }

  private static Invalid metadata(JsonNode node, Map<String, String> out) {
    if (!node.isObject()) {
      return new Invalid("metadata", "bad_metadata",
          "metadata must be an object of string values, was " + kind(node));
    }
    if (node.size() > MAX_METADATA_ENTRIES) {
      return new Invalid("metadata", "bad_metadata",
          "metadata may have at most " + MAX_METADATA_ENTRIES + " entries, was " + node.size());
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String key = e.getKey();
      if (key.isEmpty() || key.length() > MAX_METADATA_LENGTH) {
        return new Invalid("metadata", "bad_metadata",
            "metadata keys must be 1 to " + MAX_METADATA_LENGTH + " characters, was " + key.length());
      }
      JsonNode value = e.getValue();
      if (!value.isTextual()) {
        return new Invalid("metadata." + key, "bad_metadata",
            "metadata." + key + " must be a string, was " + kind(value));
      }
      if (value.textValue().length() > MAX_METADATA_LENGTH) {
        return new Invalid("metadata." + key, "bad_metadata", "metadata." + key + " must be at most "
            + MAX_METADATA_LENGTH + " characters, was " + value.textValue().length());
      }
      out.put(key, value.textValue());
    }
    return null;
  }

  /** 1-65535, or -1: only plain decimal digits, so {@code +80} and {@code 0x50} are refused. */
  private static int port(String raw) {
    if (raw.isEmpty() || raw.length() > 5 || !raw.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return -1;
    }
    int port = Integer.parseInt(raw);
    return port <= 65535 && port >= 1 ? port : -1;
  }

  /** How a wrong JSON value is named in messages: its type, and the value when it is short. */
  private static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case BOOLEAN -> "the boolean " + node;
      case NUMBER -> "the number " + node;
      case STRING -> "the string " + node;
      case NULL -> "null";
      default -> node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  private static String quote(String value) {
    return value == null ? "null" : "'" + value + "'";
  }

  /** {@code address:port}, IPv6 in brackets. */
  public String endpoint() {
    return (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
  }
}
