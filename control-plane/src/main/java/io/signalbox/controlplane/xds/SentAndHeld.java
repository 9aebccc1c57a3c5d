package io.signalbox.controlplane.xds;

import io.signalbox.controlplane.snapshot.XdsResource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What one client was sent of one type and what it holds (ACKed), stored once. A client holds what
 * it was sent except while a response is unanswered or after it NACKed one, so {@code held} is
 * kept as {@code sent} plus the few names where the two differ ({@code heldApart}). Two full maps
 * per subscription were a third of Signalbox's heap per client at 100 clusters (docs/benchmarks-history.md);
 * {@code sent} is a {@link NameMap}, a quarter of a HashMap's size.
 *
 * <p>Not thread-safe: confined to the owning stream's context, like {@link Subscription}.
 */
final class SentAndHeld {

  /** In {@link #heldApart}: the client holds nothing of that name. */
  private static final Object NOTHING = new Object();

  private final NameMap sent = new NameMap();
  private final Map<String, XdsResource> sentView = Collections.unmodifiableMap(sent);
  // name -> what the client holds of it (an XdsResource, or NOTHING) wherever that is not what it
  // was sent. Names not here are held exactly as sent.
  private final Map<String, Object> heldApart = new HashMap<>(2);

  // --- sent

  XdsResource sent(String name) {
    return sent.get(name);
  }

  /** Read-only, live. */
  Map<String, XdsResource> sent() {
    return sentView;
  }

  void send(String name, XdsResource resource) {
    XdsResource before = sent.put(name, resource);
    keepHeld(name, before);
  }

  void unsend(String name) {
    if (sent.containsKey(name)) {
      keepHeld(name, sent.remove(name));
    }
  }

  /** Sends nothing any more (a full-state type about to be answered whole); holds what it held. */
  void unsendAll() {
    sent.forEach(heldApart::putIfAbsent);
    sent.clear();
    heldApart.values().removeIf(h -> h == NOTHING);
  }

  /** The client NACKed: what it was sent is what it holds. */
  void sendHeld() {
    heldApart.forEach((name, h) -> {
      if (h == NOTHING) {
        sent.remove(name);
      } else {
        sent.put(name, (XdsResource) h);
      }
    });
    heldApart.clear();
  }

  // --- held

  XdsResource held(String name) {
    Object h = heldApart.get(name);
    if (h != null) {
      return h == NOTHING ? null : (XdsResource) h;
    }
    return sent.get(name);
  }

  boolean holds(String name) {
    return held(name) != null;
  }

  void hold(String name, XdsResource resource) {
    heldApart.put(name, resource);
    settle(name);
  }

  void unhold(String name) {
    heldApart.put(name, NOTHING);
    settle(name);
  }

  /** The client holds exactly {@code resources} (a full-state type's accepted answer). */
  void holdExactly(Map<String, XdsResource> resources) {
    if (sameAsSent(resources)) {
      heldApart.clear();
      return;
    }
    heldApart.clear();
    sent.forEach((name, r) -> heldApart.put(name, NOTHING));
    resources.forEach(this::hold);
  }

  boolean heldIsSent() {
    return heldApart.isEmpty();
  }

  /** The names held, in no particular order; a copy. */
  List<String> heldNames() {
    List<String> names = new ArrayList<>(sent.size() + heldApart.size());
    sent.forEach((name, r) -> {
      if (!heldApart.containsKey(name)) {
        names.add(name);
      }
    });
    heldApart.forEach((name, h) -> {
      if (h != NOTHING) {
        names.add(name);
      }
    });
    return names;
  }

  /** Whether any resource held names {@code child} among its references. */
  boolean anyHeldReferences(String child) {
    boolean[] any = {false};
    sent.forEach((name, r) -> any[0] |= !heldApart.containsKey(name) && r.references().contains(child));
    if (any[0]) {
      return true;
    }
    for (Object h : heldApart.values()) {
      if (h != NOTHING && ((XdsResource) h).references().contains(child)) {
        return true;
      }
    }
    return false;
  }

  // --- both

  /** Forgets {@code name} on both sides (the client unsubscribed). */
  void forget(String name) {
    sent.remove(name);
    heldApart.remove(name);
  }

  /** Forgets, on both sides, every name {@code keep} refuses. */
  void retain(Predicate<String> keep) {
    Predicate<String> gone = keep.negate();
    sent.removeNames(gone);
    heldApart.keySet().removeIf(gone);
  }

  /** What the client holds, as a plain map: for tests. */
  Map<String, XdsResource> heldCopy() {
    Map<String, XdsResource> out = new HashMap<>();
    for (String name : heldNames()) {
      out.put(name, held(name));
    }
    return out;
  }

  /** {@code before} was what the client held of {@code name} unless recorded apart already. */
  private void keepHeld(String name, XdsResource before) {
    heldApart.putIfAbsent(name, before == null ? NOTHING : before);
    settle(name);
  }

  /** Drops the apart entry of {@code name} once held and sent agree again. */
  private void settle(String name) {
    Object h = heldApart.get(name);
    XdsResource s = sent.get(name);
    if (h == NOTHING ? s == null : Objects.equals(h, s)) {
      heldApart.remove(name);
    }
  }

  private boolean sameAsSent(Map<String, XdsResource> resources) {
    if (resources.size() != sent.size()) {
      return false;
    }
    for (Map.Entry<String, XdsResource> e : resources.entrySet()) {
      XdsResource s = sent.get(e.getKey());
      if (s != e.getValue() && !Objects.equals(s, e.getValue())) {
        return false;
      }
    }
    return true;
  }
}
