package io.signalbox.validation;

/**
 * Pure textual checks for endpoint and listener addresses. Deliberately no {@code InetAddress}:
 * its parsers may resolve names (I/O) and accept forms Envoy rejects (e.g. {@code 010.1.1.1}).
 */
public final class Addresses {

  private Addresses() {}

  /** Dotted-quad IPv4, four decimal octets 0-255, no leading zeros. */
  public static boolean isIpv4(String s) {
    if (s == null || s.isEmpty() || s.length() > 15) {
      return false;
    }
    int parts = 0;
    int i = 0;
    while (i <= s.length()) {
      int start = i;
      while (i < s.length() && s.charAt(i) != '.') {
        if (s.charAt(i) < '0' || s.charAt(i) > '9') {
          return false;
        }
        i++;
      }
      int len = i - start;
      if (len == 0 || len > 3 || (len > 1 && s.charAt(start) == '0')) {
        return false;
      }
      if (Integer.parseInt(s, start, i, 10) > 255) {
        return false;
      }
      parts++;
      i++; // skip the dot (or step past the end)
    }
    return parts == 4;
  }

  /** RFC 4291 text form without brackets or zone id; an embedded IPv4 tail is allowed. */
  public static boolean isIpv6(String s) {
    if (s == null || s.length() < 2 || s.length() > 45) {
      return false;
    }
    int doubleColon = s.indexOf("::");
    if (doubleColon >= 0 && s.indexOf("::", doubleColon + 1) >= 0) {
      return false;
    }
    String head = doubleColon >= 0 ? s.substring(0, doubleColon) : s;
    String tail = doubleColon >= 0 ? s.substring(doubleColon + 2) : "";
    int groups = countGroups(head, tail.isEmpty() && doubleColon < 0);
    if (groups < 0) {
      return false;
    }
    int tailGroups = doubleColon >= 0 ? countGroups(tail, true) : 0;
    if (tailGroups < 0) {
      return false;
    }
    int total = groups + tailGroups;
    return doubleColon >= 0 ? total <= 7 : total == 8;
  }

  /**
   * Counts 16-bit groups in a colon-separated run; an IPv4 tail counts as two and may only come
   * last. Returns -1 when malformed.
   */
  private static int countGroups(String run, boolean mayEndWithIpv4) {
    if (run.isEmpty()) {
      return 0;
    }
    String[] parts = run.split(":", -1);
    int groups = 0;
    for (int p = 0; p < parts.length; p++) {
      String part = parts[p];
      boolean last = p == parts.length - 1;
      if (last && part.indexOf('.') >= 0) {
        if (!mayEndWithIpv4 || !isIpv4(part)) {
          return -1;
        }
        groups += 2;
        continue;
      }
      if (part.isEmpty() || part.length() > 4) {
        return -1;
      }
      for (int i = 0; i < part.length(); i++) {
        if (Character.digit(part.charAt(i), 16) < 0) {
          return -1;
        }
      }
      groups++;
    }
    return groups;
  }

  /** An IPv4 or IPv6 literal. */
  public static boolean isIp(String s) {
    return isIpv4(s) || isIpv6(s);
  }

  /**
   * RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, each 1-63
   * characters, 253 in all; one trailing dot allowed. An all-numeric last label is refused so
   * that a malformed IPv4 address ({@code 10.0.0.256}) is not mistaken for a name.
   */
  public static boolean isHostname(String s) {
    if (s == null || s.isEmpty()) {
      return false;
    }
    String name = s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    if (name.isEmpty() || name.length() > 253) {
      return false;
    }
    String[] labels = name.split("\\.", -1);
    for (String label : labels) {
      if (label.isEmpty() || label.length() > 63 || label.startsWith("-") || label.endsWith("-")) {
        return false;
      }
      for (int i = 0; i < label.length(); i++) {
        char c = label.charAt(i);
        boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
        if (!ok) {
          return false;
        }
      }
    }
    return !labels[labels.length - 1].chars().allMatch(Character::isDigit);
  }

  /** {@link #isIpOrHostname}'s rule in words, for each place that refuses an address by it. */
  public static final String IP_OR_HOSTNAME = "must be an IPv4 address, IPv6 address or DNS name";

  /** What an endpoint may use: an IP literal or a DNS name. */
  public static boolean isIpOrHostname(String s) {
    return isIp(s) || isHostname(s);
  }
}
