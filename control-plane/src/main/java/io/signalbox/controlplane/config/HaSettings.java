package io.signalbox.controlplane.config;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;

/**
 * {@code ha:} how this process takes part when several replicas share one external PostgreSQL
 * (DESIGN "Replicas"). Ignored by the {@code embedded} and {@code memory} stores, which run
 * standalone.
 *
 * @param replicaId this replica's name in the lease, the client list and the replica list;
 *     default {@code <hostname>-<pid>}
 * @param leaseDuration how long the leader's lease lasts without a renewal: another replica leads
 *     within this (plus a renewal interval) after the leader dies
 * @param renewInterval how often the leader renews, and followers try to take an expired lease
 */
public record HaSettings(String replicaId, Duration leaseDuration, Duration renewInterval) {

  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(5);
  public static final Duration DEFAULT_RENEW = Duration.ofSeconds(1);

  public HaSettings {
    replicaId = replicaId == null || replicaId.isBlank() ? thisProcess() : replicaId;
    leaseDuration = leaseDuration == null ? DEFAULT_LEASE : leaseDuration;
    renewInterval = renewInterval == null ? DEFAULT_RENEW : renewInterval;
  }

  public static HaSettings defaults() {
    return new HaSettings(null, null, null);
  }

  /**
   * {@code <hostname>-<pid>}: unique among processes that share a database. The host name comes
   * from {@code HOSTNAME} first: in Kubernetes, the pod's name (the pid is 1 in every pod).
   */
  public static String thisProcess() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "localhost";
      }
    }
    return host.trim() + "-" + ManagementFactory.getRuntimeMXBean().getPid();
  }
}
