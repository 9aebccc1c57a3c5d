package io.signalbox.validation;

import io.signalbox.model.DesiredState;
import io.signalbox.model.ListenerSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Listener names, kinds (API vs socket), bind addresses, and listener -> route config references. */
final class ListenerRules {

  private ListenerRules() {}

  static void check(DesiredState state, Set<String> routeConfigNames, Findings f) {
    String src = state.configSource();
    List<ListenerSpec> listeners = state.listeners();
    f.uniqueNames(src, "listener", "listeners", listeners.stream().map(l -> l == null ? null : l.name()).toList());
    Map<String, String> boundBy = new HashMap<>();
    for (int i = 0; i < listeners.size(); i++) {
      ListenerSpec listener = listeners.get(i);
      if (listener == null) {
        f.error(Findings.REQUIRED, src, "listeners[" + i + "]", "must not be null");
        continue;
      }
      String label = Labels.of("listener", "listeners", listener.name(), i);
      f.name(src, Labels.field(label, "name"), listener.name());
      if (listener.apiListener()) {
        checkApiListener(src, label, listener, f);
      } else {
        checkSocketListener(src, label, listener, boundBy, f);
      }
      String routeConfig = listener.routeConfig();
      if (routeConfig == null) {
        f.error(Findings.REQUIRED, src, Labels.field(label, "routeConfig"), "is required");
      } else if (routeConfig.isBlank()) {
        f.error(Findings.REQUIRED, src, Labels.field(label, "routeConfig"), "must not be blank");
      } else if (!routeConfigNames.contains(routeConfig)) {
        f.error(
            "reference.route-config",
            src,
            Labels.field(label, "routeConfig"),
            "names unknown route config '" + routeConfig + "'");
      }
    }
  }

  /** gRPC proxyless clients take the listener by name; a bind address there means a confused config. */
  private static void checkApiListener(String src, String label, ListenerSpec listener, Findings f) {
    if (listener.address() != null) {
      f.error(
          "listener.kind",
          src,
          Labels.field(label, "address"),
          "must not be set on an API listener, was " + Findings.quote(listener.address()));
    }
    if (listener.port() != null) {
      f.error(
          "listener.kind",
          src,
          Labels.field(label, "port"),
          "must not be set on an API listener, was " + listener.port());
    }
  }

  private static void checkSocketListener(
      String src, String label, ListenerSpec listener, Map<String, String> boundBy, Findings f) {
    String address = listener.address();
    Integer port = listener.port();
    boolean addressOk = false;
    if (address == null) {
      f.error(Findings.REQUIRED, src, Labels.field(label, "address"), "is required for a socket listener");
    } else if (!Addresses.isIp(address)) {
      f.error("address", src, Labels.field(label, "address"), "must be an IP address, was " + Findings.quote(address));
    } else {
      addressOk = true;
    }
    boolean portOk = false;
    if (port == null) {
      f.error(Findings.REQUIRED, src, Labels.field(label, "port"), "is required for a socket listener");
    } else if (port < 1 || port > 65535) {
      f.range(src, Labels.field(label, "port"), port, 1, 65535);
    } else {
      portOk = true;
    }
    if (addressOk && portOk) {
      String bind = (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
      String previous = boundBy.putIfAbsent(bind.toLowerCase(Locale.ROOT), label);
      if (previous != null) {
        f.error("duplicate.address", src, Labels.field(label, "port"), bind + " is already used by " + previous);
      }
    }
  }
}
