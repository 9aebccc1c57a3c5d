package io.signalbox.controlplane.xds;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * One client's position for one resource type.
 *
 * @param sentEpoch the epoch named by the version last sent ({@code version_info} is derived from
 *     the epoch that last changed the type)
 * @param ackedEpoch the epoch named by the version the client last ACKed
 * @param syncedEpoch the newest epoch whose content of this type the client holds exactly: it ACKed
 *     the version that epoch gives it. An offer adjusted because the client refused part of the
 *     epoch (a standing NACK) is not holding it, however it was answered.
 * @param wildcard whether the stream subscribes to every resource of the type (LDS/CDS wildcard)
 * @param subscribed how many names it subscribes to by name
 * @param names the names it subscribes to by name, as its requests said (interned: one set per
 *     distinct subscription across the fleet); with {@code wildcard}, what it asks for besides
 * @param nack the most recent NACK, kept after later ACKs: compare its epoch with ackedEpoch
 * @param refusing the client's standing NACKs of this type: name -> the current snapshot's version
 *     it refused and is still offered in place of; empty when it holds what the snapshot gives it
 */
public record TypeStatus(
    String sentVersion,
    long sentEpoch,
    Instant sentAt,
    String ackedVersion,
    long ackedEpoch,
    Instant ackedAt,
    long syncedEpoch,
    boolean wildcard,
    int subscribed,
    Set<String> names,
    NackStatus nack,
    long nacks,
    long responses,
    long bytesSent,
    Map<String, String> refusing) {

  public TypeStatus {
    refusing = refusing == null ? Map.of() : Map.copyOf(refusing);
    names = names == null ? Set.of() : names;
  }

  /** A position whose subscribed names are not known (only counted). */
  public TypeStatus(String sentVersion, long sentEpoch, Instant sentAt, String ackedVersion, long ackedEpoch,
      Instant ackedAt, long syncedEpoch, boolean wildcard, int subscribed, NackStatus nack, long nacks, long responses,
      long bytesSent, Map<String, String> refusing) {
    this(sentVersion, sentEpoch, sentAt, ackedVersion, ackedEpoch, ackedAt, syncedEpoch, wildcard, subscribed,
        Set.of(), nack, nacks, responses, bytesSent, refusing);
  }

  /**
   * What {@code s} reports now: {@code last} itself (null: none yet) if it still says exactly that.
   * After a change of one type, a client's other types answer with the instances they had, which is
   * what keeps a fleet-wide status walk from allocating four records per client per look.
   */
  static TypeStatus of(Subscription s, TypeStatus last) {
    if (last != null && last.describes(s)) {
      return last;
    }
    return new TypeStatus(s.sentVersion, s.sentEpoch, s.sentAt, s.ackedVersion, s.ackedEpoch, s.ackedAt,
        s.syncedEpoch, s.wildcard(), s.names().size(), s.names(), s.lastNack, s.nacks, s.responses, s.bytesSent,
        s.refusing());
  }

  private boolean describes(Subscription s) {
    return sentEpoch == s.sentEpoch && ackedEpoch == s.ackedEpoch && syncedEpoch == s.syncedEpoch
        && nacks == s.nacks && responses == s.responses && bytesSent == s.bytesSent && wildcard == s.wildcard()
        && names == s.names() && sentAt == s.sentAt && ackedAt == s.ackedAt && nack == s.lastNack
        && sentVersion.equals(s.sentVersion) && ackedVersion.equals(s.ackedVersion) && s.refusingEquals(refusing);
  }
}
