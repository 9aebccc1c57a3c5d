package io.signalbox.controlplane.reconcile;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.validation.Guards;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The config guard: a new config that removes every listener, route configuration or declared
 * cluster, or more than {@code configRemovalPercent} of any of them, against the config the last
 * epoch was built from, is held like a mass endpoint removal. The epoch keeps being built from the
 * config in force (endpoints still follow their sources) until an operator confirms the held one.
 * A half-synced ConfigMap or an editor's truncated save is the bad input this is for; an empty file
 * never gets here ({@code config.empty}). Confined to the writer, except the volatile hold the API
 * reads.
 */
final class ConfigHolds {

  private static final Logger log = LoggerFactory.getLogger(ConfigHolds.class);

  /** The rule of a held config reload. */
  static final String RULE = "guard.config-removal";
  /** The key of a config confirmation among the clusters' ({@code (} is never in a cluster name). */
  static final String TARGET = "(config)";

  /** The names a config declares, by kind, in name order. */
  record Declared(String source, TreeSet<String> listeners, TreeSet<String> routeConfigs, TreeSet<String> clusters) {
    static Declared of(DesiredStateTemplate template) {
      // Without endpoints the desired state has the declared clusters alone, none a source discovered.
      DesiredState state = template.with(Map.of());
      return new Declared(state.configSource(), names(state.listeners(), ListenerSpec::name),
          names(state.routeConfigs(), RouteConfigSpec::name), names(state.clusters(), ClusterSpec::name));
    }

    private static <T> TreeSet<String> names(List<T> items, Function<T, String> name) {
      TreeSet<String> names = new TreeSet<>();
      items.forEach(i -> names.add(name.apply(i)));
      return names;
    }
  }

  private record Pending(DesiredStateTemplate template, String fingerprint, HeldUpdates.Held held) {}

  private volatile int percent = 50;
  private DesiredStateTemplate inForce;
  private Declared inForceDeclared;
  private DesiredStateTemplate lastOffered;
  private Declared lastOfferedDeclared;
  private volatile Pending pending;
  private volatile DesiredStateTemplate admitted;

  void percent(int configRemovalPercent) {
    percent = configRemovalPercent;
  }

  int percent() {
    return percent;
  }

  /**
   * The template to build from: {@code offered}, or while it is held the one in force.
   *
   * <p>Validation comes before the guard: a reload the guard would hold that does not build ({@code
   * builds} says no) is returned as it is, for the build to refuse with every violation, and is not
   * held; nothing waits for a {@code confirm} that could publish what {@code validate} refuses. A
   * held reload is asked again on every build, so an edit (or a source) that makes it invalid ends
   * the hold with a refusal.
   *
   * @param confirmations key -> fingerprint an operator let through ({@link #TARGET} for a config)
   * @param builds whether a template builds with the inputs as they are now (asked only when the
   *     guard would hold or let through a confirmed reload)
   */
  DesiredStateTemplate admit(DesiredStateTemplate offered, Map<String, String> confirmations, Instant now,
      Predicate<DesiredStateTemplate> builds) {
    if (inForce == null || offered == inForce) {
      pending = null;
      admitted = offered;
      return offered;
    }
    if (offered != lastOffered) {
      lastOffered = offered;
      lastOfferedDeclared = Declared.of(offered);
    }
    List<String> removals = removals(inForceDeclared, lastOfferedDeclared, percent);
    if (removals.isEmpty()) {
      pending = null;
      admitted = offered;
      return offered;
    }
    String source = lastOfferedDeclared.source();
    if (!builds.test(offered)) {
      if (pending != null) {
        log.warn("the held reload of {} no longer builds: refused, not held", source);
      }
      pending = null;
      admitted = offered;
      return offered;
    }
    String fingerprint = fingerprint(lastOfferedDeclared);
    if (fingerprint.equals(confirmations.get(TARGET))) {
      log.warn("applying the held config reload of {}: confirmed by an operator", source);
      pending = null;
      admitted = offered;
      return offered;
    }
    Pending p = pending;
    if (p == null || !p.fingerprint().equals(fingerprint)) {
      String message = "config " + source + ": the reload " + String.join("; ", removals)
          + "; the config in force keeps serving until confirmed";
      p = new Pending(offered, fingerprint, new HeldUpdates.Held(null, RULE, message, now, source));
      log.warn("holding the reload of {}: {}", source, message);
    }
    pending = p;
    admitted = inForce;
    return inForce;
  }

  /** An epoch (or the same content) was built from {@code template}: the next config is compared with it. */
  void built(DesiredStateTemplate template) {
    if (template != inForce) {
      inForce = template;
      inForceDeclared = template == lastOffered ? lastOfferedDeclared : Declared.of(template);
    }
  }

  /** The template the writer builds from now (null before the first config). */
  DesiredStateTemplate admitted() {
    return admitted;
  }

  /** The held config reload, if any, for the status API. */
  List<HeldUpdates.Held> held() {
    Pending p = pending;
    return p == null ? List.of() : List.of(p.held());
  }

  /** What a confirmation of the held config names, or null when none is held. */
  String fingerprint() {
    Pending p = pending;
    return p == null ? null : p.fingerprint();
  }

  /**
   * Each kind the reload removes too much of, as {@code removes 2 of 3 clusters (a, b), more than
   * configRemovalPercent 50}; empty when it may apply.
   */
  static List<String> removals(Declared before, Declared after, int percent) {
    List<String> found = new ArrayList<>();
    kind(found, "listener", before.listeners(), after.listeners(), percent);
    kind(found, "route configuration", before.routeConfigs(), after.routeConfigs(), percent);
    kind(found, "declared cluster", before.clusters(), after.clusters(), percent);
    return found;
  }

  private static void kind(List<String> found, String noun, TreeSet<String> before, TreeSet<String> after,
      int percent) {
    TreeSet<String> removed = new TreeSet<>(before);
    removed.removeAll(after);
    int n = before.size();
    int r = removed.size();
    if (n == 0 || r == 0) {
      return;
    }
    String names = " (" + String.join(", ", removed) + ")";
    if (r == n) {
      found.add("removes every " + noun + ", " + r + " of " + n + names);
    } else if (Guards.removesMoreThan(percent, r, n)) {
      found.add("removes " + r + " of " + n + " " + noun + "s" + names + ", more than configRemovalPercent " + percent);
    }
  }

  /** The same for the same declared names in every process: a confirmation is stored. */
  static String fingerprint(Declared declared) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    for (TreeSet<String> kind : List.of(declared.listeners(), declared.routeConfigs(), declared.clusters())) {
      kind.forEach(name -> sha.update((name + "\n").getBytes(StandardCharsets.UTF_8)));
      sha.update((byte) 0);
    }
    return HexFormat.of().formatHex(sha.digest(), 0, 16);
  }
}
