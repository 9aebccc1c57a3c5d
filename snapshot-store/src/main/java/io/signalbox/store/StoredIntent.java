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
 * @param ejectionFreeze the freeze of ejections in force, or null
 * @param drops the operator's drops, per cluster in the order clients apply them
 * @param revision the {@link IntentStore#revision()} this read saw
 */
public record StoredIntent(
    Freeze freeze,
    List<Quarantined> quarantine,
    List<Confirmation> confirmations,
    List<StoredOverride> overrides,
    Map<String, Integer> ejections,
    Freeze ejectionFreeze,
    List<Drop> drops,
    long revision) {

  public StoredIntent {
    quarantine = List.copyOf(quarantine);
    confirmations = List.copyOf(confirmations);
    overrides = List.copyOf(overrides);
    ejections = Map.copyOf(ejections);
    drops = List.copyOf(drops);
  }

  public static final StoredIntent EMPTY = new StoredIntent(null, List.of(), List.of(), List.of(), Map.of(), null,
      List.of(), 0);

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

  /**
   * An operator's drop: clients of {@code cluster} drop {@code perMillion} of their calls under
   * {@code category} (EDS {@code drop_overloads}). Parts per million is the precision xDS carries
   * ({@code FractionalPercent} MILLION), so what is stored is exactly what is sent.
   */
  public record Drop(String cluster, String category, int perMillion, String actor, String reason, Instant at) {
    public Drop {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(category, "category");
      if (perMillion <= 0 || perMillion > 1_000_000) {
        throw new IllegalArgumentException("perMillion must be in (0, 1000000], was " + perMillion);
      }
      Objects.requireNonNull(actor, "actor");
      reason = reason == null ? "" : reason;
      Objects.requireNonNull(at, "at");
    }
  }

  /** The key of {@link #ejections}. */
  public static String endpointKey(String cluster, String address, int port) {
    return cluster + "/" + (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
  }
}
