package io.signalbox.controlplane.xds;

import java.time.Instant;

/**
 * One client's position for one resource type.
 *
 * @param sentEpoch the epoch named by the version last sent ({@code version_info} is derived from
 *     the epoch that last changed the type)
 * @param ackedEpoch the epoch named by the version the client last ACKed
 * @param syncedEpoch the newest epoch whose content of this type the client is known to hold
 * @param nack the most recent NACK, kept after later ACKs: compare its epoch with ackedEpoch
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
    NackStatus nack,
    long nacks,
    long responses,
    long bytesSent) {

  static TypeStatus of(Subscription s) {
    return new TypeStatus(s.sentVersion, s.sentEpoch, s.sentAt, s.ackedVersion, s.ackedEpoch, s.ackedAt,
        s.syncedEpoch, s.wildcard(), s.names().size(), s.lastNack, s.nacks, s.responses, s.bytesSent);
  }
}
