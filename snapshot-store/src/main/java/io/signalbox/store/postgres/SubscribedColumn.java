package io.signalbox.store.postgres;

import java.util.Set;
import java.util.TreeSet;

/**
 * {@code client_status.subscribed}: a stream's subscription of one type as text. One line per name
 * in name order, after a first line {@code *} when the stream subscribes to the whole type. A name
 * may hold anything a client sent (line breaks too), so {@code %} and line feeds are
 * percent-escaped; {@code *} as a name is the delta wildcard and never stored as one.
 */
final class SubscribedColumn {

  private static final String WILDCARD = "*";

  private SubscribedColumn() {}

  static String encode(boolean wildcard, Set<String> names) {
    StringBuilder s = new StringBuilder();
    if (wildcard) {
      s.append(WILDCARD).append('\n');
    }
    for (String name : new TreeSet<>(names)) {
      s.append(name.replace("%", "%25").replace("\n", "%0A")).append('\n');
    }
    return s.toString();
  }

  static boolean wildcard(String column) {
    return column.startsWith(WILDCARD + "\n");
  }

  static Set<String> names(String column) {
    Set<String> names = new TreeSet<>();
    for (String line : column.split("\n")) {
      if (!line.isEmpty() && !line.equals(WILDCARD)) {
        names.add(line.replace("%0A", "\n").replace("%25", "%"));
      }
    }
    return names.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(names);
  }
}
