package io.signalbox.controlplane.admin;

import io.javalin.http.Context;
import io.javalin.http.Header;
import io.javalin.http.HttpStatus;
import io.signalbox.controlplane.config.TokenSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bearer-token checks (DESIGN §6 "Auth"). Tokens are known only by their SHA-256, and a presented
 * token's hash is compared with every configured hash in constant time, so neither the config file
 * nor response timing gives a token away.
 */
final class TokenAuth {

  private static final Logger log = LoggerFactory.getLogger(TokenAuth.class);
  private static final String BEARER = "Bearer ";

  private record Known(String name, TokenSettings.Role role, byte[] sha256Hex) {}

  private final boolean enabled;
  private final boolean openMetrics;
  private final List<Known> tokens;

  private TokenAuth(boolean enabled, boolean openMetrics, List<Known> tokens) {
    this.enabled = enabled;
    this.openMetrics = openMetrics;
    this.tokens = tokens;
  }

  /**
   * Auth is on as soon as any token is configured, even one whose secret cannot be resolved: a
   * missing environment variable must lock the API, never open it on all interfaces.
   */
  static TokenAuth of(List<TokenSettings> settings, boolean openMetrics, Function<String, String> environment) {
    List<Known> known = new ArrayList<>();
    for (TokenSettings t : settings) {
      Optional<String> hash = t.expectedSha256(environment);
      if (hash.isEmpty()) {
        log.warn("admin token '{}' has no usable secret (sha256 unset and {} empty): it will match nothing",
            t.name(), t.secretEnv() == null ? "no secretEnv" : "$" + t.secretEnv());
        continue;
      }
      known.add(new Known(t.name(), t.role(), hash.get().getBytes(StandardCharsets.US_ASCII)));
    }
    return new TokenAuth(!settings.isEmpty(), openMetrics, List.copyOf(known));
  }

  boolean enabled() {
    return enabled;
  }

  /** Who is calling a route that needs {@code access}; throws 401 or 403 when they may not. */
  Caller check(Context ctx, Access access) {
    if (!enabled || access == Access.PUBLIC || (access == Access.METRICS && openMetrics)) {
      return identify(ctx).orElse(Caller.ANONYMOUS);
    }
    String header = ctx.header(Header.AUTHORIZATION);
    if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      throw unauthorized("this route needs a bearer token (Authorization: Bearer <token>)");
    }
    Caller caller = identify(ctx).orElseThrow(() -> unauthorized("unknown token"));
    if (!access.allows(caller.role())) {
      throw new ApiException(HttpStatus.FORBIDDEN, "forbidden",
          "this route needs the " + access.label() + " role; token '" + caller.name() + "' has " + caller.role());
    }
    return caller;
  }

  private Optional<Caller> identify(Context ctx) {
    String header = ctx.header(Header.AUTHORIZATION);
    if (!enabled || header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return Optional.empty();
    }
    byte[] presented = TokenSettings.sha256Hex(header.substring(BEARER.length()).strip())
        .getBytes(StandardCharsets.US_ASCII);
    Known match = null;
    for (Known k : tokens) {
      // No early exit: every configured hash is compared, whichever matches.
      if (MessageDigest.isEqual(presented, k.sha256Hex()) && match == null) {
        match = k;
      }
    }
    return match == null ? Optional.empty() : Optional.of(new Caller(match.name(), match.role()));
  }

  private static ApiException unauthorized(String message) {
    return new ApiException(HttpStatus.UNAUTHORIZED, "unauthorized", message);
  }
}
