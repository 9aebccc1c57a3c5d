package io.signalbox.validation;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.envoyproxy.pgv.validate.Validate;
import io.envoyproxy.pgv.validate.Validate.BytesRules;
import io.envoyproxy.pgv.validate.Validate.EnumRules;
import io.envoyproxy.pgv.validate.Validate.FieldRules;
import io.envoyproxy.pgv.validate.Validate.StringRules;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * protoc-gen-validate rules for one scalar value (number, bool, string, bytes, enum), phrased the
 * way the rest of the validator phrases them ({@code must be <= 100, was 150}).
 *
 * <p>Rule kinds Envoy's API does not use, or that cannot be checked without I/O or a full RFC
 * parser ({@code email}, {@code uri}, {@code uri_ref}, bytes {@code pattern}), are ignored.
 */
final class PgvScalarRules {

  /** The regexes protoc-gen-validate itself uses for {@code well_known_regex}. */
  private static final Pattern HEADER_NAME_STRICT = Pattern.compile("^:?[0-9a-zA-Z!#$%&'*+\\-.^_|~`]+$");
  private static final Pattern HEADER_VALUE_STRICT = Pattern.compile("^[^\\u0000-\\u0008\\u000A-\\u001F\\u007F]*$");
  private static final Pattern HEADER_LENIENT = Pattern.compile("^[^\\u0000\\u000A\\u000D]*$");
  private static final Pattern UUID =
      Pattern.compile("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$");

  /** Patterns compiled once per process; empty when RE2 syntax Java cannot read (rule ignored). */
  private final Map<String, Optional<Pattern>> patterns = new ConcurrentHashMap<>();

  interface Sink {
    void add(String path, String message);
  }

  void check(String path, FieldDescriptor field, Object value, FieldRules rules, Sink sink) {
    if (!applies(rules.getTypeCase(), value)) {
      return; // a rule of the wrong kind for this field: protoc-gen-validate would not compile it
    }
    switch (rules.getTypeCase()) {
      case FLOAT -> {
        var r = rules.getFloat();
        doubles(path, ((Number) value).doubleValue(), r.hasConst() ? (double) r.getConst() : null,
            r.hasLt() ? (double) r.getLt() : null, r.hasLte() ? (double) r.getLte() : null,
            r.hasGt() ? (double) r.getGt() : null, r.hasGte() ? (double) r.getGte() : null,
            r.getInList().stream().map(Float::doubleValue).toList(),
            r.getNotInList().stream().map(Float::doubleValue).toList(), r.getIgnoreEmpty(), sink);
      }
      case DOUBLE -> {
        var r = rules.getDouble();
        doubles(path, ((Number) value).doubleValue(), r.hasConst() ? r.getConst() : null,
            r.hasLt() ? r.getLt() : null, r.hasLte() ? r.getLte() : null,
            r.hasGt() ? r.getGt() : null, r.hasGte() ? r.getGte() : null,
            r.getInList(), r.getNotInList(), r.getIgnoreEmpty(), sink);
      }
      case INT32 -> {
        var r = rules.getInt32();
        ints(path, signed(value), r.hasConst() ? r.getConst() : null, r.hasLt() ? r.getLt() : null,
            r.hasLte() ? r.getLte() : null, r.hasGt() ? r.getGt() : null, r.hasGte() ? r.getGte() : null,
            r.getInList(), r.getNotInList(), r.getIgnoreEmpty(), PgvScalarRules::signed, sink);
      }
      case SINT32 -> {
        var r = rules.getSint32();
        ints(path, signed(value), r.hasConst() ? r.getConst() : null, r.hasLt() ? r.getLt() : null,
            r.hasLte() ? r.getLte() : null, r.hasGt() ? r.getGt() : null, r.hasGte() ? r.getGte() : null,
            r.getInList(), r.getNotInList(), r.getIgnoreEmpty(), PgvScalarRules::signed, sink);
      }
      case SFIXED32 -> {
        var r = rules.getSfixed32();
        ints(path, signed(value), r.hasConst() ? r.getConst() : null, r.hasLt() ? r.getLt() : null,
            r.hasLte() ? r.getLte() : null, r.hasGt() ? r.getGt() : null, r.hasGte() ? r.getGte() : null,
            r.getInList(), r.getNotInList(), r.getIgnoreEmpty(), PgvScalarRules::signed, sink);
      }
      case INT64 -> {
        var r = rules.getInt64();
        ints(path, signed(value), r.hasConst() ? r.getConst() : null, r.hasLt() ? r.getLt() : null,
            r.hasLte() ? r.getLte() : null, r.hasGt() ? r.getGt() : null, r.hasGte() ? r.getGte() : null,
            r.getInList(), r.getNotInList(), r.getIgnoreEmpty(), PgvScalarRules::signed, sink);
      }
      case SINT64 -> {
        var r = rules.getSint64();
        ints(path, signed(value), r.hasConst() ? r.getConst() : null, r.hasLt() ? r.getLt() : null,
            r.hasLte() ? r.getLte() : null, r.hasGt() ? r.getGt() : null, r.hasGte() ? r.getGte() : null,
            r.getInList(), r.getNotInList(), r.getIgnoreEmpty(), PgvScalarRules::signed, sink);
      }
      case SFIXED64 -> {
        var r = rules.getSfixed64();
        ints(path, signed(value), r.hasConst() ? r.getConst() : null, r.hasLt() ? r.getLt() : null,
            r.hasLte() ? r.getLte() : null, r.hasGt() ? r.getGt() : null, r.hasGte() ? r.getGte() : null,
            r.getInList(), r.getNotInList(), r.getIgnoreEmpty(), PgvScalarRules::signed, sink);
      }
      case UINT32 -> {
        var r = rules.getUint32();
        ints(path, unsigned32(value), r.hasConst() ? r.getConst() : null, r.hasLt() ? r.getLt() : null,
            r.hasLte() ? r.getLte() : null, r.hasGt() ? r.getGt() : null, r.hasGte() ? r.getGte() : null,
            r.getInList(), r.getNotInList(), r.getIgnoreEmpty(), PgvScalarRules::unsigned32, sink);
      }
      case FIXED32 -> {
        var r = rules.getFixed32();
        ints(path, unsigned32(value), r.hasConst() ? r.getConst() : null, r.hasLt() ? r.getLt() : null,
            r.hasLte() ? r.getLte() : null, r.hasGt() ? r.getGt() : null, r.hasGte() ? r.getGte() : null,
            r.getInList(), r.getNotInList(), r.getIgnoreEmpty(), PgvScalarRules::unsigned32, sink);
      }
      case UINT64 -> {
        var r = rules.getUint64();
        ints(path, unsigned64(value), r.hasConst() ? r.getConst() : null, r.hasLt() ? r.getLt() : null,
            r.hasLte() ? r.getLte() : null, r.hasGt() ? r.getGt() : null, r.hasGte() ? r.getGte() : null,
            r.getInList(), r.getNotInList(), r.getIgnoreEmpty(), PgvScalarRules::unsigned64, sink);
      }
      case FIXED64 -> {
        var r = rules.getFixed64();
        ints(path, unsigned64(value), r.hasConst() ? r.getConst() : null, r.hasLt() ? r.getLt() : null,
            r.hasLte() ? r.getLte() : null, r.hasGt() ? r.getGt() : null, r.hasGte() ? r.getGte() : null,
            r.getInList(), r.getNotInList(), r.getIgnoreEmpty(), PgvScalarRules::unsigned64, sink);
      }
      case BOOL -> {
        if (rules.getBool().hasConst() && !value.equals(rules.getBool().getConst())) {
          sink.add(path, "must equal " + rules.getBool().getConst() + ", was " + value);
        }
      }
      case STRING -> string(path, (String) value, rules.getString(), sink);
      case BYTES -> bytes(path, (ByteString) value, rules.getBytes(), sink);
      case ENUM -> enumeration(path, field, (EnumValueDescriptor) value, rules.getEnum(), sink);
      default -> {
        // Message-level kinds (message, repeated, map, any, duration) are the walker's; timestamp
        // rules are unused by Envoy's xDS resources.
      }
    }
  }

  private static boolean applies(FieldRules.TypeCase kind, Object value) {
    return switch (kind) {
      case FLOAT, DOUBLE, INT32, SINT32, SFIXED32, INT64, SINT64, SFIXED64, UINT32, FIXED32, UINT64, FIXED64 ->
          value instanceof Number;
      case BOOL -> value instanceof Boolean;
      case STRING -> value instanceof String;
      case BYTES -> value instanceof ByteString;
      case ENUM -> value instanceof EnumValueDescriptor;
      default -> false;
    };
  }

  private static BigInteger signed(Object value) {
    return BigInteger.valueOf(((Number) value).longValue());
  }

  private static BigInteger unsigned32(Object value) {
    return BigInteger.valueOf(Integer.toUnsignedLong(((Number) value).intValue()));
  }

  private static BigInteger unsigned64(Object value) {
    long v = ((Number) value).longValue();
    return v >= 0 ? BigInteger.valueOf(v) : new BigInteger(Long.toUnsignedString(v));
  }

  /** Integer kinds: rule bounds arrive as the rule's Java type and are converted like the value. */
  private static <N> void ints(
      String path, BigInteger value, N constant, N lt, N lte, N gt, N gte, List<N> in, List<N> notIn,
      boolean ignoreEmpty, Function<Object, BigInteger> convert, Sink sink) {
    if (ignoreEmpty && value.signum() == 0) {
      return;
    }
    bounded(path, value, map(constant, convert), map(lt, convert), map(lte, convert), map(gt, convert),
        map(gte, convert), converted(in, convert), converted(notIn, convert), sink);
  }

  /** Most rules have no in/not_in lists; this runs for every bounded field of every resource. */
  private static <N> List<BigInteger> converted(List<N> values, Function<Object, BigInteger> convert) {
    return values.isEmpty() ? List.of() : values.stream().map(convert).toList();
  }

  private static void doubles(
      String path, double value, Double constant, Double lt, Double lte, Double gt, Double gte, List<Double> in,
      List<Double> notIn, boolean ignoreEmpty, Sink sink) {
    if (ignoreEmpty && value == 0d) {
      return;
    }
    bounded(path, value, constant, lt, lte, gt, gte, in, notIn, sink);
  }

  private static <N> BigInteger map(N bound, Function<Object, BigInteger> convert) {
    return bound == null ? null : convert.apply(bound);
  }

  /**
   * protoc-gen-validate's range semantics: a lower bound above the upper bound means "outside
   * the range" (valid on either side), otherwise both bounds must hold.
   */
  static <T extends Comparable<T>> void bounded(
      String path, T v, T constant, T lt, T lte, T gt, T gte, List<T> in, List<T> notIn, Sink sink) {
    if (constant != null && v.compareTo(constant) != 0) {
      sink.add(path, "must equal " + constant + ", was " + v);
    }
    T lower = gt != null ? gt : gte;
    T upper = lt != null ? lt : lte;
    boolean lowerOk = gt != null ? v.compareTo(gt) > 0 : gte == null || v.compareTo(gte) >= 0;
    boolean upperOk = lt != null ? v.compareTo(lt) < 0 : lte == null || v.compareTo(lte) <= 0;
    // The texts only when something is wrong: this runs for every bounded field of every resource.
    if (lower != null && upper != null && lower.compareTo(upper) > 0) {
      if (!lowerOk && !upperOk) {
        sink.add(path, "must be " + lowerText(gt, gte) + " or " + upperText(lt, lte) + ", was " + v);
      }
    } else if (!lowerOk) {
      sink.add(path, "must be " + lowerText(gt, gte) + ", was " + v);
    } else if (!upperOk) {
      sink.add(path, "must be " + upperText(lt, lte) + ", was " + v);
    }
    if (!in.isEmpty() && in.stream().noneMatch(x -> x.compareTo(v) == 0)) {
      sink.add(path, "must be one of " + in + ", was " + v);
    }
    if (!notIn.isEmpty() && notIn.stream().anyMatch(x -> x.compareTo(v) == 0)) {
      sink.add(path, "must not be one of " + notIn + ", was " + v);
    }
  }

  private static String lowerText(Object gt, Object gte) {
    return gt != null ? "> " + gt : gte != null ? ">= " + gte : "";
  }

  private static String upperText(Object lt, Object lte) {
    return lt != null ? "< " + lt : lte != null ? "<= " + lte : "";
  }

  private void string(String path, String s, StringRules r, Sink sink) {
    if (r.getIgnoreEmpty() && s.isEmpty()) {
      return;
    }
    String shown = "'" + s + "'";
    if (r.hasConst() && !s.equals(r.getConst())) {
      sink.add(path, "must equal '" + r.getConst() + "', was " + shown);
    }
    long chars = s.codePointCount(0, s.length());
    if (r.hasLen() && chars != r.getLen()) {
      sink.add(path, "must be exactly " + r.getLen() + " character(s), was " + chars);
    }
    if (r.hasMinLen() && chars < r.getMinLen()) {
      sink.add(path, "must be at least " + r.getMinLen() + " character(s), was " + chars);
    }
    if (r.hasMaxLen() && chars > r.getMaxLen()) {
      sink.add(path, "must be at most " + r.getMaxLen() + " character(s), was " + chars);
    }
    if (r.hasLenBytes() || r.hasMinBytes() || r.hasMaxBytes()) {
      long bytes = s.getBytes(StandardCharsets.UTF_8).length;
      if (r.hasLenBytes() && bytes != r.getLenBytes()) {
        sink.add(path, "must be exactly " + r.getLenBytes() + " byte(s), was " + bytes);
      }
      if (r.hasMinBytes() && bytes < r.getMinBytes()) {
        sink.add(path, "must be at least " + r.getMinBytes() + " byte(s), was " + bytes);
      }
      if (r.hasMaxBytes() && bytes > r.getMaxBytes()) {
        sink.add(path, "must be at most " + r.getMaxBytes() + " byte(s), was " + bytes);
      }
    }
    if (r.hasPattern()) {
      Optional<Pattern> p = patterns.computeIfAbsent(r.getPattern(), PgvScalarRules::compile);
      if (p.isPresent() && !p.get().matcher(s).find()) {
        sink.add(path, "must match pattern '" + r.getPattern() + "', was " + shown);
      }
    }
    if (r.hasPrefix() && !s.startsWith(r.getPrefix())) {
      sink.add(path, "must start with '" + r.getPrefix() + "', was " + shown);
    }
    if (r.hasSuffix() && !s.endsWith(r.getSuffix())) {
      sink.add(path, "must end with '" + r.getSuffix() + "', was " + shown);
    }
    if (r.hasContains() && !s.contains(r.getContains())) {
      sink.add(path, "must contain '" + r.getContains() + "', was " + shown);
    }
    if (r.hasNotContains() && s.contains(r.getNotContains())) {
      sink.add(path, "must not contain '" + r.getNotContains() + "', was " + shown);
    }
    if (r.getInCount() > 0 && !r.getInList().contains(s)) {
      sink.add(path, "must be one of " + r.getInList() + ", was " + shown);
    }
    if (r.getNotInList().contains(s)) {
      sink.add(path, "must not be one of " + r.getNotInList() + ", was " + shown);
    }
    wellKnown(path, s, shown, r, sink);
  }

  private static void wellKnown(String path, String s, String shown, StringRules r, Sink sink) {
    switch (r.getWellKnownCase()) {
      case HOSTNAME -> failUnless(r.getHostname() && !Addresses.isHostname(s), path, "must be a hostname, was " + shown, sink);
      case IP -> failUnless(r.getIp() && !Addresses.isIp(s), path, "must be an IP address, was " + shown, sink);
      case IPV4 -> failUnless(r.getIpv4() && !Addresses.isIpv4(s), path, "must be an IPv4 address, was " + shown, sink);
      case IPV6 -> failUnless(r.getIpv6() && !Addresses.isIpv6(s), path, "must be an IPv6 address, was " + shown, sink);
      case ADDRESS -> failUnless(
          r.getAddress() && !Addresses.isIpOrHostname(s), path, "must be an IP address or hostname, was " + shown, sink);
      case UUID -> failUnless(r.getUuid() && !UUID.matcher(s).matches(), path, "must be a UUID, was " + shown, sink);
      case WELL_KNOWN_REGEX -> {
        Validate.KnownRegex regex = r.getWellKnownRegex();
        // strict defaults to true in validate.proto; Envoy relaxes it where RFC 7230 is too tight.
        boolean strict = !r.hasStrict() || r.getStrict();
        Pattern p = !strict
            ? HEADER_LENIENT
            : regex == Validate.KnownRegex.HTTP_HEADER_NAME ? HEADER_NAME_STRICT
            : regex == Validate.KnownRegex.HTTP_HEADER_VALUE ? HEADER_VALUE_STRICT : null;
        if (p != null && !p.matcher(s).matches()) {
          String what = regex == Validate.KnownRegex.HTTP_HEADER_NAME ? "an HTTP header name" : "an HTTP header value";
          sink.add(path, "must be " + what + ", was " + shown);
        }
      }
      default -> {
        // email, uri, uri_ref: unused by the xDS resources Signalbox builds.
      }
    }
  }

  private static void failUnless(boolean failed, String path, String message, Sink sink) {
    if (failed) {
      sink.add(path, message);
    }
  }

  private static Optional<Pattern> compile(String regex) {
    try {
      return Optional.of(Pattern.compile(regex));
    } catch (PatternSyntaxException e) {
      return Optional.empty();
    }
  }

  private static void bytes(String path, ByteString b, BytesRules r, Sink sink) {
    if (r.getIgnoreEmpty() && b.isEmpty()) {
      return;
    }
    if (r.hasConst() && !b.equals(r.getConst())) {
      sink.add(path, "must equal the configured constant bytes");
    }
    if (r.hasLen() && b.size() != r.getLen()) {
      sink.add(path, "must be exactly " + r.getLen() + " byte(s), was " + b.size());
    }
    if (r.hasMinLen() && b.size() < r.getMinLen()) {
      sink.add(path, "must be at least " + r.getMinLen() + " byte(s), was " + b.size());
    }
    if (r.hasMaxLen() && b.size() > r.getMaxLen()) {
      sink.add(path, "must be at most " + r.getMaxLen() + " byte(s), was " + b.size());
    }
    if (r.hasPrefix() && !b.startsWith(r.getPrefix())) {
      sink.add(path, "must start with the configured prefix bytes");
    }
    if (r.hasSuffix() && !b.endsWith(r.getSuffix())) {
      sink.add(path, "must end with the configured suffix bytes");
    }
    if (r.getInCount() > 0 && !r.getInList().contains(b)) {
      sink.add(path, "must be one of the allowed values");
    }
    if (r.getNotInList().contains(b)) {
      sink.add(path, "must not be one of the forbidden values");
    }
    boolean ipv4 = b.size() == 4;
    boolean ipv6 = b.size() == 16;
    if ((r.getIp() && !ipv4 && !ipv6) || (r.getIpv4() && !ipv4) || (r.getIpv6() && !ipv6)) {
      sink.add(path, "must be an IP address in network byte order, was " + b.size() + " byte(s)");
    }
  }

  private static void enumeration(String path, FieldDescriptor field, EnumValueDescriptor value, EnumRules r, Sink sink) {
    int n = value.getNumber();
    String shown = field.getEnumType().findValueByNumber(n) == null ? String.valueOf(n) : value.getName();
    if (r.getDefinedOnly() && field.getEnumType().findValueByNumber(n) == null) {
      sink.add(path, "must be a defined " + field.getEnumType().getName() + " value, was " + n);
    }
    if (r.hasConst() && n != r.getConst()) {
      sink.add(path, "must equal " + name(field, r.getConst()) + ", was " + shown);
    }
    if (r.getInCount() > 0 && !r.getInList().contains(n)) {
      sink.add(path, "must be one of " + names(field, r.getInList()) + ", was " + shown);
    }
    if (r.getNotInList().contains(n)) {
      sink.add(path, "must not be one of " + names(field, r.getNotInList()) + ", was " + shown);
    }
  }

  private static String name(FieldDescriptor field, int number) {
    EnumValueDescriptor v = field.getEnumType().findValueByNumber(number);
    return v == null ? String.valueOf(number) : v.getName();
  }

  private static String names(FieldDescriptor field, List<Integer> numbers) {
    return numbers.stream().map(n -> name(field, n)).collect(Collectors.joining(", ", "[", "]"));
  }
}
