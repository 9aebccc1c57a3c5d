package io.signalbox.controlplane.xds;

import com.google.common.collect.Interner;
import com.google.common.collect.Interners;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What one subscription asks for: the resource names and whether it is a wildcard, as the xDS
 * protocol's SotW and delta requests change them. Names, name sets and request lists are interned,
 * so a fleet asking for the same names shares them. Called with the owning stream's lock held, as
 * {@link Subscription} is.
 */
final class SubscribedNames {

  /**
   * One instance per resource name across all clients: a thousand clients subscribing to the same
   * hundred clusters hold a hundred strings, not a hundred thousand freshly decoded ones. Weak: a
   * name nobody subscribes to any more is collected.
   */
  private static final Interner<String> NAMES = Interners.newWeakInterner();

  /**
   * Likewise whole subscriptions, and the request lists they came from: a fleet whose clients ask
   * for the same hundred clusters keeps one set and one list of them, not one per client (a
   * hundred tree entries each).
   */
  private static final Interner<Set<String>> NAME_SETS = Interners.newWeakInterner();
  private static final Interner<List<String>> NAME_LISTS = Interners.newWeakInterner();

  private final XdsType type;
  private boolean initialized;
  private boolean wildcard;
  // Immutable and interned: clients subscribing to the same names share one set.
  private Set<String> names = Set.of();
  // The names of the last SotW request, as sent: every ACK repeats them, and comparing the list
  // costs less than hashing freshly decoded strings into a set.
  private List<String> lastRequested = List.of();

  SubscribedNames(XdsType type) {
    this.type = type;
  }

  /** Whether a request has been seen. */
  boolean initialized() {
    return initialized;
  }

  boolean wildcard() {
    return wildcard;
  }

  /** The names asked for, without {@code "*"}; immutable. */
  Set<String> names() {
    return names;
  }

  /** Whether {@code name} is asked for, by name or as part of a wildcard. */
  boolean asksFor(String name) {
    return wildcard || names.contains(name);
  }

  /**
   * State-of-the-world: the request's names replace the subscription. An empty first request for
   * LDS or CDS is the legacy wildcard (xDS protocol, "How the client specifies what resources to
   * return"); {@code "*"} asks for everything; names alone end a wildcard.
   *
   * @return whether the subscription changed (every ACK repeats it unchanged)
   */
  boolean replace(List<String> asked) {
    if (initialized && asked.equals(lastRequested)) {
      return false;
    }
    List<String> requested = new ArrayList<>(asked.size());
    for (String n : asked) {
      requested.add(NAMES.intern(n));
    }
    Set<String> next = new HashSet<>(requested.size());
    for (String n : requested) {
      if (!n.equals("*")) {
        next.add(n);
      }
    }
    boolean nextWildcard = !initialized ? type.fullStateInSotw() && requested.isEmpty()
        : requested.contains("*") || requested.isEmpty() && wildcard;
    if (initialized && next.equals(names) && nextWildcard == wildcard) {
      return false;
    }
    initialized = true;
    wildcard = requested.contains("*") || nextWildcard;
    names = NAME_SETS.intern(Set.copyOf(next));
    // The same String instances as `names`: remembering the request costs a list, not its names.
    lastRequested = NAME_LISTS.intern(List.copyOf(requested));
    return true;
  }

  /**
   * Delta: the first request makes the subscription a wildcard if it names nothing, for a type a
   * SotW client gets whole (LDS, CDS).
   *
   * @return whether this was the first request
   */
  boolean startDelta(List<String> subscribe) {
    if (initialized) {
      return false;
    }
    wildcard = type.fullStateInSotw() && subscribe.isEmpty();
    initialized = true;
    return true;
  }

  /**
   * Delta: names added and removed; {@code "*"} starts or ends the wildcard.
   *
   * @param dropped told each name unsubscribed while not a wildcard: the client no longer holds it
   */
  void changeDelta(List<String> subscribe, List<String> unsubscribe, Consumer<String> dropped) {
    Set<String> next = new HashSet<>(names);
    for (String n : subscribe) {
      if (n.equals("*")) {
        wildcard = true;
      } else {
        next.add(NAMES.intern(n));
      }
    }
    for (String n : unsubscribe) {
      if (n.equals("*")) {
        wildcard = false;
      } else {
        next.remove(n);
        if (!wildcard) {
          dropped.accept(n);
        }
      }
    }
    names = NAME_SETS.intern(Set.copyOf(next));
  }
}
