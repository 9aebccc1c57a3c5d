package io.signalbox.store;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The operator intent as stored, read at once ({@link IntentStore#read}).
 *
 * @param freeze the freeze in force, or null
 * @param ejections per endpoint ({@code cluster/address:port}), how many ejections it ever had,
 *     active or not: the back-off of the next one
 * @param revision the {@link IntentStore#revision()} this read saw
 */
public record StoredIntent(
    Freeze freeze,
    List<Quarantined> quarantine,
    List<Confirmation> confirmations,
    List<StoredOverride> overrides,
    Map<String, Integer> ejections,
    long revision) {

  public StoredIntent {
    quarantine = List.copyOf(quarantine);
    confirmations = List.copyOf(confirmations);
    overrides = List.copyOf(overrides);
    ejections = Map.copyOf(ejections);
  }

  public static final StoredIntent EMPTY = new StoredIntent(null, List.of(), List.of(), List.of(), Map.of(), 0);

  /** Who froze publishing, why and when. */
  public record Freeze(String actor, String reason, Instant at) {
    public Freeze {
      Objects.requireNonNull(actor, "actor");
      reason = reason == null ? "" : reason;
      Objects.requireNonNull(at, "at");
    }
  }

  /**
   * One quarantined resource: while translation yields {@code rejectedVersion} of it, serve it as
   * it was in {@code restoreEpoch}.
   *
   * @param type the xDS type's name: LISTENER, ROUTE, CLUSTER or ENDPOINT
   */
  public record Quarantined(String type, String name, String rejectedVersion, long restoreEpoch, String reason,
      String actor, Instant at) {
    public Quarantined {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(rejectedVersion, "rejectedVersion");
      reason = reason == null ? "" : reason;
      Objects.requireNonNull(actor, "actor");
      Objects.requireNonNull(at, "at");
    }
  }

  /** An operator let a cluster's held update through while it keeps {@code fingerprint}. */
  public record Confirmation(String cluster, String fingerprint, String actor, Instant at) {
    public Confirmation {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(fingerprint, "fingerprint");
      Objects.requireNonNull(actor, "actor");
      Objects.requireNonNull(at, "at");
    }
  }

  /** The key of {@link #ejections}. */
  public static String endpointKey(String cluster, String address, int port) {
    return cluster + "/" + (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
  }
}
