package io.signalbox.controlplane.config;

import io.signalbox.store.StoreSettings;
import io.signalbox.validation.Addresses;
import io.signalbox.validation.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The value rules of every settings section (everything but the desired state, which the validator
 * owns), run by {@link ConfigLoader#parse} itself: so a reload, a start and {@code validate} refuse
 * the same values. Most of these keys take effect only at a restart ({@link RestartOnly}); before
 * this ran on every path, an out-of-range one was read at a reload, ignored there, and only broke
 * the next start.
 */
public final class SettingsChecks {

  /** The rule id of these violations (shared with {@link SecurityChecks}). */
  public static final String RULE = SecurityChecks.RULE;
  private static final Set<String> SOURCE_KINDS = Set.of("file", "kubernetes", "registry");
  private static final int SHA256_HEX_CHARS = 64;

  private SettingsChecks() {}

  public static List<Violation> of(SignalboxConfig config) {
    List<Violation> problems = new ArrayList<>(SecurityChecks.of(config));
    Found found = new Found(config.configSource(), problems);
    port(found, "xds.port", config.xds().port());
    address(found, "xds.address", config.xds().address());
    notNegative(found, "xds.maxConnectionAgeGrace", config.xds().maxConnectionAgeGrace());
    positive(found, "xds.limits.permitKeepAliveTime", config.xds().limits().permitKeepAliveTime());
    positive(found, "xds.loadReportingInterval", config.xds().loadReportingInterval());
    admin(found, config.admin());
    store(found, config.store());
    sources(found, config.sources());
    ReconcileSettings reconcile = config.reconcile();
    notNegative(found, "reconcile.debounce", reconcile.debounce());
    positive(found, "reconcile.maxDelay", reconcile.maxDelay());
    notNegative(found, "reconcile.holdStable", reconcile.holdStable());
    percent(found, "reconcile.configRemovalPercent", reconcile.configRemovalPercent());
    RolloutSettings rollout = config.rollout();
    notNegative(found, "rollout.settle", rollout.settle());
    positive(found, "rollout.checkInterval", rollout.checkInterval());
    for (int i = 0; i < rollout.waves().size(); i++) {
      notNegative(found, "rollout.waves[" + i + "].bake", rollout.waves().get(i).bake());
    }
    HaSettings ha = config.ha();
    positive(found, "ha.leaseDuration", ha.leaseDuration());
    positive(found, "ha.renewInterval", ha.renewInterval());
    if (ha.renewInterval().compareTo(ha.leaseDuration()) >= 0 && !ha.leaseDuration().isZero()) {
      found.add("ha.renewInterval", "must be shorter than ha.leaseDuration (" + text(ha.leaseDuration())
          + ") or the leader loses its lease between renewals, was " + text(ha.renewInterval()));
    }
    return List.copyOf(problems);
  }

  private static void admin(Found found, AdminSettings admin) {
    port(found, "admin.port", admin.port());
    address(found, "admin.address", admin.address());
    for (int i = 0; i < admin.tokens().size(); i++) {
      TokenSettings token = admin.tokens().get(i);
      String key = "admin.tokens[" + i + "]";
      if (token.name() == null || token.name().isBlank()) {
        found.add(key + ".name", "is required: it names the caller in the audit log");
      }
      if (token.role() == null) {
        found.add(key + ".role", "is required (viewer, operator or registrant)");
      }
      boolean hash = token.sha256() != null;
      boolean env = token.secretEnv() != null;
      if (hash == env) {
        found.add(key, "needs exactly one of sha256 and secretEnv");
      }
      if (hash && !isSha256Hex(token.sha256())) {
        found.add(key + ".sha256", "must be 64 hexadecimal characters (the SHA-256 of the token), was "
            + token.sha256().length() + " characters");
      }
      if (env && token.secretEnv().isBlank()) {
        found.add(key + ".secretEnv", "must name an environment variable");
      }
    }
  }

  private static void store(Found found, StoreSettings store) {
    StoreSettings.urlProblem(store.url()).ifPresent(problem -> found.add("store.url", problem));
    if (store.retainEpochs() < 1) {
      found.add("store.retainEpochs", "must be at least 1, was " + store.retainEpochs());
    }
    positive(found, "store.history.retain", store.history().retain());
    if (store.history().maxEvents() < 1) {
      found.add("store.history.maxEvents", "must be at least 1, was " + store.history().maxEvents());
    }
  }

  private static void sources(Found found, SourcesSettings sources) {
    notNegative(found, "sources.fileQuietPeriod", sources.fileQuietPeriod());
    positive(found, "sources.registry.leaseTtl", sources.registry().leaseTtl());
    for (int i = 0; i < sources.precedence().size(); i++) {
      String kind = sources.precedence().get(i);
      if (!SOURCE_KINDS.contains(kind)) {
        found.add("sources.precedence[" + i + "]", "must be file, kubernetes or registry, was '" + kind + "'");
      }
    }
  }

  private static boolean isSha256Hex(String value) {
    String hex = value.strip();
    return hex.length() == SHA256_HEX_CHARS && hex.chars().allMatch(HexFormat::isHexDigit);
  }

  private static void port(Found found, String key, int port) {
    if (port < 0 || port > 65535) {
      found.add(key, "must be from 1 to 65535 (0 picks a free port), was " + port);
    }
  }

  private static void address(Found found, String key, String address) {
    if (!Addresses.isIpOrHostname(address)) {
      found.add(key, "must be an IP address or a host name to listen on, was '" + address + "'");
    }
  }

  private static void percent(Found found, String key, int value) {
    if (value < 0 || value > 100) {
      found.add(key, "must be from 0 to 100, was " + value);
    }
  }

  private static void positive(Found found, String key, Duration value) {
    if (value.isZero() || value.isNegative()) {
      found.add(key, "must be longer than 0, was " + text(value));
    }
  }

  private static void notNegative(Found found, String key, Duration value) {
    if (value.isNegative()) {
      found.add(key, "must not be negative, was " + text(value));
    }
  }

  /** A duration as the config file writes it: {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h}. */
  static String text(Duration d) {
    long ms = d.toMillis();
    if (ms % 1000 != 0 || ms == 0) {
      return ms + "ms";
    }
    long s = ms / 1000;
    return s % 3600 == 0 ? s / 3600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
  }

  private record Found(String source, List<Violation> problems) {
    void add(String key, String message) {
      problems.add(Violation.error(RULE, source, key, message));
    }
  }
}
