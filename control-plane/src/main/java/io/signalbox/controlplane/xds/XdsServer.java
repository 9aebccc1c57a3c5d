package io.signalbox.controlplane.xds;

import io.signalbox.controlplane.snapshot.Snapshot;
import java.util.List;

/**
 * The project's narrow view of an xDS server: publish sealed snapshots, read what every client
 * holds. Everything about java-control-plane stays behind it.
 */
public interface XdsServer extends AutoCloseable {

  /** The port actually bound (useful when configured as 0). */
  int port();

  /**
   * Makes {@code snapshot} current and starts pushing what changed to every client. Epochs must
   * increase; an older or equal epoch is a bug and is refused.
   */
  void publish(Snapshot snapshot);

  /**
   * Releases {@code snapshot} to one rollout wave only (see {@link Waves}); {@link #publish}
   * releases to all. A wave never moves to an older epoch.
   */
  void release(int wave, Snapshot snapshot);

  /** What wave {@code wave} is being served, or null before anything was released to it. */
  Snapshot releasedTo(int wave);

  /** The newest snapshot released to any wave, or null before the first publish. */
  Snapshot current();

  /** Every connected client stream. */
  List<ClientStatus> clients();

  /** The connected clients that subscribe to, or hold, resource {@code name} of {@code type}. */
  List<ClientStatus> holders(io.signalbox.controlplane.snapshot.XdsType type, String name);

  @Override
  void close();

  /** What kind of client each node is (configured node groups, else the user agent). */
  default ClientKinds clientKinds() {
    return ClientKinds.NONE;
  }
}
