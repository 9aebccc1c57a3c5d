package io.signalbox.controlplane.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * An admin API token: either its SHA-256 ({@code sha256}, hex) so the config file never holds the
 * secret, or {@code secretEnv}, the name of an environment variable holding the token itself.
 */
public record TokenSettings(String name, Role role, String sha256, String secretEnv) {

  /** What a token may do; each role includes the ones before it except {@link #REGISTRANT}. */
  public enum Role {
    /** Reads every {@code /api/v1/} route. */
    VIEWER,
    /** Reads, and changes state: drain, eject, rollback, freeze. */
    OPERATOR,
    /** Registers and renews endpoint leases only (what a service instance holds). */
    REGISTRANT;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The hex SHA-256 a presented token must hash to: {@code sha256} when set, else the hash of the
   * {@code secretEnv} variable's value; empty when neither gives one (the validator reports it).
   *
   * @param environment variable lookup, normally {@code System::getenv}
   */
  public Optional<String> expectedSha256(Function<String, String> environment) {
    if (sha256 != null && !sha256.isBlank()) {
      return Optional.of(sha256.strip().toLowerCase(Locale.ROOT));
    }
    if (secretEnv == null || secretEnv.isBlank()) {
      return Optional.empty();
    }
    String secret = environment.apply(secretEnv);
    if (secret == null || secret.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(sha256Hex(secret));
  }

  /** The lower-case hex SHA-256 of a token, as {@code sha256} expects it. */
  public static String sha256Hex(String token) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
