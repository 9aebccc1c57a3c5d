package io.signalbox.store;

import io.signalbox.proto.v1.Provenance;
import io.signalbox.proto.v1.SnapshotEnvelope;

/** Seals a small envelope whose content names its epoch, so tests can tell envelopes apart. */
public final class EnvelopeSealer implements EpochSealer<SnapshotEnvelope> {

  private final String cause;

  private EnvelopeSealer(String cause) {
    this.cause = cause;
  }

  public static EnvelopeSealer because(String cause) {
    return new EnvelopeSealer(cause);
  }

  @Override
  public SnapshotEnvelope seal(long epoch) {
    return SnapshotEnvelope.newBuilder()
        .setEpoch(epoch)
        .setParentEpoch(epoch - 1)
        .setContentHash("hash-" + epoch)
        .setProvenance(Provenance.newBuilder().setCause(cause).putSourceGenerations("files", "g" + epoch))
        .build();
  }

  @Override
  public SnapshotEnvelope envelope(SnapshotEnvelope sealed) {
    return sealed;
  }
}
