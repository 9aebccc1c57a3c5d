package io.signalbox.controlplane.config;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which settings a reload cannot apply, and how a reloaded config differs from the running one in
 * them. A reload applies the desired state ({@code listeners}, {@code routeConfigs},
 * {@code clusters}, {@code clusterDefaults}); every key of every other section is read once, by
 * {@code SignalboxServer.start}, to open ports, the store, sources and threads. Rather than a list
 * kept by hand beside that code, every leaf of those sections is restart-only, so a key added to
 * a settings record is covered the day it is added.
 */
public final class RestartOnly {

  /** The top-level keys a reload applies; everything else takes effect at restart. */
  public static final Set<String> APPLIED_ON_RELOAD = Set.of("listeners", "routeConfigs", "clusters",
      "clusterDefaults");
  private static final Set<String> NOT_SETTINGS = Set.of("configSource");
  /** Shown in place of a secret, whether or not it changed. */
  static final String REDACTED = "***";

  private RestartOnly() {}

  /**
   * One restart-only key whose configured value is not the running one.
   *
   * @param key the dotted path, {@code xds.port}
   * @param running the value in effect, as text (secrets redacted)
   * @param configured the value in the file, as text
   */
  public record Change(String key, String running, String configured) {
    @Override
    public String toString() {
      return key + ": takes effect at restart (running " + running + ", configured " + configured + ")";
    }
  }

  /** Every restart-only key whose value in {@code configured} differs from {@code running}, in key order. */
  public static List<Change> changes(SignalboxConfig running, SignalboxConfig configured) {
    List<Change> changes = new ArrayList<>();
    for (RecordComponent section : SignalboxConfig.class.getRecordComponents()) {
      String name = section.getName();
      if (!APPLIED_ON_RELOAD.contains(name) && !NOT_SETTINGS.contains(name)) {
        compare(name, value(section, running), value(section, configured), changes);
      }
    }
    changes.sort(java.util.Comparator.comparing(Change::key));
    return List.copyOf(changes);
  }

  /** Every restart-only key, as dotted paths: the table in docs/configuration.md is held to it. */
  public static List<String> keys() {
    List<String> keys = new ArrayList<>();
    for (RecordComponent section : SignalboxConfig.class.getRecordComponents()) {
      if (!APPLIED_ON_RELOAD.contains(section.getName()) && !NOT_SETTINGS.contains(section.getName())) {
        keys(section.getName(), section.getType(), keys);
      }
    }
    return keys;
  }

  private static void keys(String path, Class<?> type, List<String> keys) {
    if (!type.isRecord()) {
      keys.add(path);
      return;
    }
    for (RecordComponent c : type.getRecordComponents()) {
      keys(path + "." + c.getName(), c.getType(), keys);
    }
  }

  private static void compare(String path, Object running, Object configured, List<Change> changes) {
    if (Objects.equals(running, configured)) {
      return;
    }
    Class<?> type = running != null ? running.getClass() : configured.getClass();
    if (type.isRecord() && running != null && configured != null) {
      for (RecordComponent c : type.getRecordComponents()) {
        compare(path + "." + c.getName(), value(c, running), value(c, configured), changes);
      }
      return;
    }
    if (type.isRecord()) {
      // A section present on one side only (xds.tls set or removed): its leaves, each against nothing.
      for (RecordComponent c : type.getRecordComponents()) {
        compare(path + "." + c.getName(), running == null ? null : value(c, running),
            configured == null ? null : value(c, configured), changes);
      }
      return;
    }
    changes.add(new Change(path, text(path, running), text(path, configured)));
  }

  private static String text(String path, Object value) {
    if (path.endsWith(".password") && value != null) {
      return REDACTED;
    }
    if (value instanceof java.time.Duration d) {
      return SettingsChecks.text(d);
    }
    if (value instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof TokenSettings) {
      // A token's sha256 lets anyone who reads the status guess a weak token offline: names and roles only.
      return list.stream().map(t -> ((TokenSettings) t).name() + " (" + ((TokenSettings) t).role() + ")").toList()
          .toString();
    }
    return String.valueOf(value);
  }

  private static Object value(RecordComponent component, Object record) {
    try {
      return component.getAccessor().invoke(record);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read " + component, e);
    }
  }
}
