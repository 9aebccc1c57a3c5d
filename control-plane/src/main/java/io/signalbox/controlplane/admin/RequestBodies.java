package io.signalbox.controlplane.admin;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.util.ClassUtil;
import io.javalin.http.HttpStatus;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.jetty.http.HttpField;

/**
 * The one reader of admin request bodies. Every strictness rule is one of Jackson's own features
 * (or the JDK's strict UTF-8 decoder), configured once here:
 *
 * <ul>
 *   <li>the body is UTF-8 JSON (RFC 8259 §8.1) sent as {@code application/json}; no Content-Encoding;
 *   <li>no leniency of the parser: {@link JsonReadFeature} (comments, single quotes, NaN, leading
 *       zeros, trailing commas, ...) all off; a byte order mark is refused;
 *   <li>one document: {@link DeserializationFeature#FAIL_ON_TRAILING_TOKENS};
 *   <li>no key twice at any depth: {@link StreamReadFeature#STRICT_DUPLICATE_DETECTION};
 *   <li>the body is an object; unknown keys are errors (DESIGN §6 "Values");
 *   <li>no coercion: {@code "5"}, {@code 5.0} and {@code true} are not integers, {@code "ready"} is
 *       not {@code READY} ({@link MapperFeature#ACCEPT_CASE_INSENSITIVE_ENUMS} stays off), {@code 5} is not a
 *       string ({@link MapperFeature#ALLOW_COERCION_OF_SCALARS}, {@link
 *       DeserializationFeature#ACCEPT_FLOAT_AS_INT}, coercion configs); integers out of their
 *       type's range are refused;
 *   <li>no null where a value is required: the records say so with {@code @JsonProperty(required)}
 *       and {@code @JsonSetter(nulls = Nulls.FAIL)}.
 * </ul>
 *
 * The document is parsed to a tree first and bound second, so a syntax error ({@code bad_json},
 * with line and column) is told apart from a field with the wrong value ({@code bad_<field>},
 * naming the field, what it must be and what it was).
 */
final class RequestBodies {

  private static final Set<Class<?>> INTEGERS =
      Set.of(Byte.class, Short.class, Integer.class, Long.class, BigInteger.class);

  private final JsonMapper json;

  RequestBodies() {
    JsonMapper.Builder builder = JsonMapper.builder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
            DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS,
            // Keeps a number as sent (2.50, 1E+400) for the message that refuses it.
            DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        // Off by default; said here so that nobody turns one on for one route's convenience.
        .disable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS, MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES,
            MapperFeature.ACCEPT_CASE_INSENSITIVE_VALUES)
        .disable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL,
            DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_USING_DEFAULT_VALUE,
            DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY, DeserializationFeature.UNWRAP_SINGLE_VALUE_ARRAYS)
        .withCoercionConfigDefaults(c -> c.setAcceptBlankAsEmpty(false))
        .withCoercionConfig(LogicalType.Textual, c -> c
            .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    builder.addModule(new SimpleModule().setDeserializerModifier(new ExactEnumNames()));
    for (JsonReadFeature leniency : JsonReadFeature.values()) {
      builder.disable(leniency); // every one is an ALLOW_*: off already, and off for good
    }
    this.json = builder.build();
  }

  /**
   * Enum values by their exact name only: Jackson's own enum reader, with every case-insensitive
   * feature off, still takes {@code " READY"} for {@code READY} (it retries a name trimmed).
   */
  private static final class ExactEnumNames extends BeanDeserializerModifier {
    @Override
    public JsonDeserializer<?> modifyEnumDeserializer(DeserializationConfig config, JavaType type,
        BeanDescription description, JsonDeserializer<?> jackson) {
      return new StdDeserializer<Object>(type) {
        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
          String text = p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : null;
          if (text != null && Stream.of(type.getRawClass().getEnumConstants())
              .noneMatch(c -> ((Enum<?>) c).name().equals(text))) {
            throw InvalidFormatException.from(p, "not an exact name", text, type.getRawClass());
          }
          return jackson.deserialize(p, ctxt);
        }
      };
    }
  }

  /**
   * An optional body: null when it is empty (whatever the Content-Type, or none).
   *
   * @param contentType the request's {@code Content-Type}, or null
   * @param contentEncoding the request's {@code Content-Encoding}, or null
   */
  <T> T optional(byte[] body, String contentType, String contentEncoding, Class<T> type) {
    return body.length == 0 ? null : read(body, contentType, contentEncoding, type);
  }

  /** A body the route cannot do without: an empty one is {@code 400 empty_body}. */
  <T> T required(byte[] body, String contentType, String contentEncoding, Class<T> type) {
    if (body.length == 0) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "empty_body",
          "this request needs a JSON object body with " + fields(type) + "; it was empty");
    }
    return read(body, contentType, contentEncoding, type);
  }

  /** A route that takes no body (DELETE): a body would be ignored, so it is refused instead. */
  static void none(byte[] body) {
    if (body.length > 0) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "unexpected_body",
          "this request takes no body; it had " + body.length + " bytes");
    }
  }

  private <T> T read(byte[] body, String contentType, String contentEncoding, Class<T> type) {
    checkMediaType(contentType, contentEncoding);
    String text = utf8(body);
    JsonNode tree;
    try {
      tree = json.readTree(text);
    } catch (MismatchedInputException e) {
      // The only mismatch a tree read has: FAIL_ON_TRAILING_TOKENS found a second value.
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_json",
          "the request body has content after its JSON value" + at(e.getLocation()));
    } catch (JsonProcessingException e) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_json",
          "the request body is not valid: " + e.getOriginalMessage() + at(e.getLocation()));
    }
    if (tree.isMissingNode()) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_json", "the request body is only whitespace, not JSON");
    }
    if (!tree.isObject()) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_json",
          "the request body must be a JSON object, was " + kind(tree));
    }
    try {
      return json.treeToValue(tree, type);
    } catch (UnrecognizedPropertyException e) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "unknown_field", "unknown field '" + e.getPropertyName()
          + "' in the request body; known fields: " + known(type, e));
    } catch (JsonMappingException e) {
      throw fieldError(e, tree, type);
    } catch (JsonProcessingException e) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_json",
          "the request body is not valid: " + e.getOriginalMessage());
    }
  }

  /**
   * RFC 8259 registers {@code application/json} with no charset parameter; one other than UTF-8
   * announces bytes this reader would misread, and a compressed body is not JSON either (RFC 7694:
   * 415 for an unsupported content coding).
   */
  private static void checkMediaType(String contentType, String contentEncoding) {
    if (contentEncoding != null && !contentEncoding.isBlank()
        && !contentEncoding.strip().equalsIgnoreCase("identity")) {
      throw new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_content_encoding",
          "request bodies are not compressed; Content-Encoding was '" + contentEncoding.strip() + "'");
    }
    if (contentType == null || contentType.isBlank()) {
      throw new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
          "a request body must be sent as Content-Type: application/json; the request had no Content-Type");
    }
    Map<String, String> parameters = new HashMap<>();
    String mediaType = HttpField.getValueParameters(contentType, parameters);
    if (!"application/json".equalsIgnoreCase(mediaType)) {
      throw new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
          "a request body must be sent as Content-Type: application/json, was '" + contentType.strip() + "'");
    }
    parameters.forEach((name, value) -> {
      if (name.equalsIgnoreCase("charset") && !value.equalsIgnoreCase("utf-8")) {
        throw new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
            "a request body must be UTF-8 JSON, was charset '" + value + "'");
      }
    });
  }

  /**
   * Decoded as UTF-8 by the JDK's strict decoder, not by Jackson's detection: Jackson would also
   * take UTF-16 and UTF-32 (RFC 8259 §8.1: JSON between systems is UTF-8), and skip a BOM, which
   * the parser then refuses as the unexpected character it is.
   */
  private static String utf8(byte[] body) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(body);
    CharBuffer out = CharBuffer.allocate(body.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_encoding",
          "the request body is not UTF-8: byte 0x" + String.format("%02x", body[in.position()] & 0xff)
              + " at offset " + in.position() + " does not start a UTF-8 character");
    }
    decoder.flush(out);
    return out.flip().toString();
  }

  /**
   * A value Jackson would not bind: the code names the top-level field ({@code bad_weight}), the
   * message says what the field must be (its {@code @JsonPropertyDescription}, else its type)
   * and what the request sent.
   */
  private ApiException fieldError(JsonMappingException e, JsonNode tree, Class<?> type) {
    List<JsonMappingException.Reference> path = e.getPath();
    if (path.isEmpty() || path.get(0).getFieldName() == null) {
      return new ApiException(HttpStatus.BAD_REQUEST, "bad_json", "the request body is not valid: "
          + e.getOriginalMessage());
    }
    String field = path.get(0).getFieldName();
    // additionalAddresses[0], capacity.rps: an index follows its array's name without a dot.
    String where = path.stream().map(r -> r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]")
        .collect(Collectors.joining()).substring(1);
    JsonNode sent = tree;
    for (JsonMappingException.Reference r : path) {
      sent = r.getFieldName() != null ? sent.path(r.getFieldName()) : sent.path(r.getIndex());
    }
    String expected = path.size() == 1 ? expected(type, field) : expected(e);
    String code = "bad_" + field;
    if (sent.isMissingNode()) {
      return new ApiException(HttpStatus.BAD_REQUEST, code, where + " is required: " + expected);
    }
    return new ApiException(HttpStatus.BAD_REQUEST, code, where + " must be " + expected + ", was " + kind(sent));
  }

  /** In the order the record declares them (Jackson's own order puts annotated ones first). */
  private static List<?> known(Class<?> type, UnrecognizedPropertyException e) {
    if (type.isRecord()) {
      return Stream.of(type.getRecordComponents()).map(RecordComponent::getName).toList();
    }
    return List.copyOf(e.getKnownPropertyIds());
  }

  /** A record component's {@code @JsonPropertyDescription}, else what its type takes. */
  private String expected(Class<?> type, String field) {
    for (BeanPropertyDefinition p : properties(type)) {
      if (p.getName().equals(field)) {
        String description = p.getMetadata().getDescription();
        return description != null ? description : describe(p.getPrimaryType());
      }
    }
    return "a known field";
  }

  /** Inside a field (a metadata value): what the element type takes. */
  private String expected(JsonMappingException e) {
    if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
      return describe(json.constructType(m.getTargetType()));
    }
    return "a valid value";
  }

  private static String describe(JavaType type) {
    Class<?> raw = type.isPrimitive() ? ClassUtil.wrapperType(type.getRawClass()) : type.getRawClass();
    if (INTEGERS.contains(raw)) {
      return "an integer";
    }
    if (Number.class.isAssignableFrom(raw)) {
      return "a number";
    }
    if (type.isTypeOrSubTypeOf(CharSequence.class)) {
      return "a string";
    }
    if (raw == Boolean.class) {
      return "true or false";
    }
    if (raw.isEnum()) { // by exact name: ACCEPT_CASE_INSENSITIVE_ENUMS stays off
      return "one of " + Stream.of(raw.getEnumConstants()).map(c -> ((Enum<?>) c).name())
          .collect(Collectors.joining(", "));
    }
    if (type.isMapLikeType()) {
      return "an object of " + plural(describe(type.getContentType()));
    }
    if (type.isCollectionLikeType() || type.isArrayType()) {
      return "an array of " + plural(describe(type.getContentType()));
    }
    return "an object";
  }

  private static String plural(String description) {
    return switch (description) {
      case "a string" -> "string values";
      case "an integer" -> "integers";
      default -> "values";
    };
  }

  private List<BeanPropertyDefinition> properties(Class<?> type) {
    return json.getDeserializationConfig().introspect(json.constructType(type)).findProperties();
  }

  /** The names a body of {@code type} may carry, required ones first, for the empty-body message. */
  private String fields(Class<?> type) {
    return properties(type).stream().filter(BeanPropertyDefinition::isRequired).map(p -> "'" + p.getName() + "'")
        .collect(Collectors.collectingAndThen(Collectors.joining(", "), s -> s.isEmpty() ? "its fields" : s));
  }

  /** How a wrong JSON value is named in messages: its type, and the value when it is short. */
  static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case BOOLEAN -> "the boolean " + node;
      case NUMBER -> "the number " + shortened(node.toString());
      case STRING -> "the string " + shortened(node.toString());
      case NULL -> "null";
      default -> node.getNodeType().name().toLowerCase(Locale.ROOT);
    };
  }

  private static String shortened(String text) {
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }

  private static String at(JsonLocation location) {
    return location == null || location.getLineNr() < 0 ? ""
        : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }
}
