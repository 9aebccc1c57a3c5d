package io.signalbox.controlplane.cli;

import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.yaml.StrictYaml;
import io.signalbox.validation.Addresses;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converters that check arguments with the server's own rules, so a typo is a usage error (exit 2)
 * before any request is sent.
 */
final class Arguments {

  private Arguments() {}

  /**
   * {@code address:port} as {@link EndpointRef#parse} reads it, whose address follows the rule an
   * endpoint's address follows in the config ({@link Addresses#isIpOrHostname}): the server could
   * never have such an endpoint, so sending the command would only earn a vaguer "has no endpoint".
   * Converts to its canonical key.
   */
  static final class Endpoint implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      EndpointRef ref = EndpointRef.parse("", value);
      if (ref == null) {
        throw new TypeConversionException("expected address:port (IPv6 as [::1]:8080), was '" + value + "'");
      }
      if (!Addresses.isIpOrHostname(ref.address())) {
        throw new TypeConversionException("the address " + Addresses.IP_OR_HOSTNAME + ", was '" + ref.address() + "'");
      }
      return ref.key();
    }
  }

  /** A duration the server accepts ({@code 30s}, {@code 5m}, {@code 1h}); kept as text to send it on. */
  static final class DurationText implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      parse(value);
      return value.strip();
    }
  }

  /** The same durations, as a {@link Duration}. */
  static final class DurationValue implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return parse(value);
    }
  }

  static Duration parse(String value) {
    return StrictYaml.parseDuration(value).filter(d -> !d.isNegative())
        .orElseThrow(() -> new TypeConversionException("expected a duration like 30s, 5m or 1h, was '" + value + "'"));
  }

  /** An API time to the millisecond ({@code 2025-01-02T03:04:05.123Z}); anything else as it is. */
  static String instant(String iso) {
    try {
      return java.time.Instant.parse(iso).truncatedTo(java.time.temporal.ChronoUnit.MILLIS).toString();
    } catch (java.time.format.DateTimeParseException e) {
      return iso;
    }
  }

  /** {@code 90s} as {@code 1m30s}: how durations read in progress lines. */
  static String human(Duration d) {
    long seconds = Math.max(0, (d.toMillis() + 999) / 1000);
    if (seconds < 60) {
      return seconds + "s";
    }
    long h = seconds / 3600;
    long m = seconds % 3600 / 60;
    long s = seconds % 60;
    return (h > 0 ? h + "h" : "") + (m > 0 ? m + "m" : "") + (s > 0 ? s + "s" : "");
  }
}
