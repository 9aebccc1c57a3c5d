package io.signalbox.validation;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rules for names every input shares: resource names in the config, cluster names a source
 * discovers or a registrant announces, and the {@code address:port} of an endpoint named in an API
 * path. One place, so the config file, the registry and the operator API refuse the same names.
 */
public final class NameRules {

  /** Kubernetes-derived names look like {@code ns/svc:port}; anything else is likely a typo. */
  private static final Pattern NAME_CHARS = Pattern.compile("[A-Za-z0-9._\\-/:]+");

  private NameRules() {}

  /**
   * What is wrong with a non-blank resource name, phrased to follow its label ({@code "cluster "
   * + problem}), or empty when it is fine. Names reach API paths ({@code %2F} for {@code /}), so a
   * segment that is empty or {@code .}/{@code ..} is refused: clients and proxies normalise such
   * paths (RFC 3986 §5.2.4), and the name could not be addressed as itself.
   */
  public static Optional<String> nameProblem(String name) {
    for (int i = 0; i < name.length(); i++) {
      if (Character.isISOControl(name.charAt(i))) {
        return Optional.of("must not contain control characters, was " + quote(name));
      }
    }
    if (!NAME_CHARS.matcher(name).matches()) {
      return Optional.of("may contain only letters, digits and . _ - / :, was " + quote(name));
    }
    for (String segment : name.split("/", -1)) {
      if (segment.isEmpty()) {
        return Optional.of("must not have an empty segment (a leading, trailing or doubled '/'), was " + quote(name));
      }
      if (segment.equals(".") || segment.equals("..")) {
        return Optional.of("must not have a '.' or '..' segment, was " + quote(name));
      }
    }
    return Optional.empty();
  }

  /**
   * What is wrong with free text that reaches logs, status and clients (a metadata value), phrased
   * like {@link #nameProblem}, or empty: control characters forge log lines and terminal colours, and
   * invisible formatting characters (U+200B, U+202E) make two different values look the same.
   */
  public static Optional<String> textProblem(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c)) {
        return Optional.of("must not contain control characters, was " + quote(text));
      }
      if (Character.getType(c) == Character.FORMAT) {
        return Optional.of("must not contain invisible formatting characters, was " + quote(text));
      }
    }
    return Optional.empty();
  }

  /**
   * As {@link #textProblem}, for a label compared as a key (a zone, a metadata key): also no space
   * at either end, which would make {@code "a "} a zone of its own that nobody can see apart from
   * {@code "a"}. The empty label is fine: it means "none".
   */
  public static Optional<String> labelProblem(String label) {
    Optional<String> text = textProblem(label);
    if (text.isPresent()) {
      return text;
    }
    if (!label.isEmpty() && (space(label.charAt(0)) || space(label.charAt(label.length() - 1)))) {
      return Optional.of("must not start or end with a space, was " + quote(label));
    }
    return Optional.empty();
  }

  /** ASCII and Unicode spaces alike (U+00A0, U+3000). */
  private static boolean space(char c) {
    return Character.isWhitespace(c) || Character.isSpaceChar(c);
  }

  /** An endpoint as an API path names it: {@code address:port}, IPv6 in brackets. */
  public sealed interface EndpointKey {}

  /** @param address without brackets */
  public record Endpoint(String address, int port) implements EndpointKey {}

  /** @param part {@code endpoint}, {@code address} or {@code port}: which part is wrong */
  public record Refused(String part, String message) implements EndpointKey {}

  /**
   * Reads {@code 10.0.0.1:8080}, {@code [fd00::1]:8080} or {@code host.local:8080} strictly: the
   * address is dotted-quad IPv4 without leading zeros, bracketed IPv6, or an RFC 1123 DNS name
   * (so no empty or {@code ..} labels and no control characters); the port is plain decimal
   * digits, 1-65535 ({@code +80}, {@code 080}, {@code 0x50} and {@code 8080 } are refused).
   */
  public static EndpointKey endpoint(String raw) {
    int colon = raw == null ? -1 : raw.lastIndexOf(':');
    if (colon <= 0) {
      return new Refused("endpoint", "expected address:port (IPv6 as [::1]:8080), was " + quote(raw));
    }
    String address = raw.substring(0, colon);
    String rawPort = raw.substring(colon + 1);
    boolean bracketed = address.startsWith("[") && address.endsWith("]");
    String bare = bracketed ? address.substring(1, address.length() - 1) : address;
    if (bracketed ? !Addresses.isIpv6(bare) : !(Addresses.isIpv4(bare) || Addresses.isHostname(bare))) {
      return new Refused("address",
          "address must be an IPv4 address, an IPv6 address in brackets or a DNS name, was " + quote(address));
    }
    int port = port(rawPort);
    if (port < 1) {
      return new Refused("port", "port must be a number from 1 to 65535, was " + quote(rawPort));
    }
    return new Endpoint(bare, port);
  }

  /**
   * 1-65535, or -1: only plain decimal digits, which {@code Integer.parseInt} alone does not ensure,
   * and no leading zero ({@code 080} is not another spelling of 80, as {@code 010.0.0.1} is no address).
   */
  private static int port(String raw) {
    if (raw.isEmpty() || raw.length() > 5 || raw.charAt(0) == '0'
        || !raw.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return -1;
    }
    int port = Integer.parseInt(raw);
    return port >= 1 && port <= 65535 ? port : -1;
  }

  /**
   * Quoted, with control and invisible formatting characters escaped as {@code \\uXXXX}: the name
   * goes into error bodies and logs, where a raw newline or escape sequence would forge lines or
   * colours, and an invisible character would not show what was refused.
   */
  static String quote(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder("'");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('\'').toString();
  }
}
