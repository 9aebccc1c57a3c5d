package io.signalbox.controlplane.config;

import io.signalbox.controlplane.tls.NodeIdentity;
import io.signalbox.validation.Violation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of the {@code xds} and {@code admin} sections that the file's structure cannot say:
 * which TLS keys go together, a usable node identity template, limits in range. Pure: whether the
 * files exist and hold PEM is found out when they are read, with the same kind of message.
 */
public final class SecurityChecks {

  /** The rule id of these violations. */
  public static final String RULE = "server";
  /** The smallest request limit: a subscription to a few hundred names must still fit. */
  static final int MIN_REQUEST_BYTES = 64 * 1024;

  private SecurityChecks() {}

  public static List<Violation> of(SignalboxConfig config) {
    List<Violation> problems = new ArrayList<>();
    String source = config.configSource();
    XdsSettings xds = config.xds();
    XdsTlsSettings tls = xds.tls();
    if (tls != null) {
      pair(problems, source, "xds.tls", tls.certFile(), tls.keyFile());
      if (tls.clientCaFile() != null && (tls.certFile() == null || tls.keyFile() == null)) {
        problems.add(error(source, "xds.tls.clientCaFile", "needs certFile and keyFile: mutual TLS is TLS first"));
      }
      if (tls.nodeIdentity() != null) {
        if (tls.clientCaFile() == null) {
          problems.add(error(source, "xds.tls.nodeIdentity",
              "needs clientCaFile: without client certificates there is no identity to bind a node to"));
        }
        for (String p : NodeIdentity.problems(tls.nodeIdentity())) {
          problems.add(error(source, "xds.tls.nodeIdentity", p + ", was '" + tls.nodeIdentity() + "'"));
        }
      }
    }
    XdsLimitsSettings limits = xds.limits();
    atLeast(problems, source, "xds.limits.maxStreamsPerConnection", limits.maxStreamsPerConnection(), 1);
    atLeast(problems, source, "xds.limits.maxRequestBytes", limits.maxRequestBytes(), MIN_REQUEST_BYTES);
    atLeast(problems, source, "xds.limits.maxNamesPerSubscription", limits.maxNamesPerSubscription(), 1);
    atLeast(problems, source, "xds.limits.maxPendingRequests", limits.maxPendingRequests(), 1);
    positive(problems, source, "xds.limits.handshakeTimeout", limits.handshakeTimeout());
    positive(problems, source, "xds.maxConnectionAge", xds.maxConnectionAge());
    for (int i = 0; i < xds.clientKinds().size(); i++) {
      ClientKindSettings group = xds.clientKinds().get(i);
      String key = "xds.clientKinds[" + i + "]";
      if (group == null) {
        problems.add(error(source, key, "must not be empty"));
        continue;
      }
      if (group.nodeClusters().isEmpty()) {
        problems.add(error(source, key + ".nodeClusters", "must name at least one node cluster"));
      }
      if (group.kind() == null && group.drainingAs() == null) {
        problems.add(error(source, key, "sets neither kind nor drainingAs, so it changes nothing"));
      }
    }
    AdminTlsSettings admin = config.admin().tls();
    if (admin != null) {
      pair(problems, source, "admin.tls", admin.certFile(), admin.keyFile());
    }
    return problems;
  }

  private static void pair(List<Violation> problems, String source, String key, Path certFile, Path keyFile) {
    if (certFile == null) {
      problems.add(error(source, key + ".certFile", "is required with " + key));
    }
    if (keyFile == null) {
      problems.add(error(source, key + ".keyFile", "is required with " + key));
    }
  }

  private static void atLeast(List<Violation> problems, String source, String key, int value, int min) {
    if (value < min) {
      problems.add(error(source, key, "must be at least " + min + ", was " + value));
    }
  }

  private static void positive(List<Violation> problems, String source, String key, Duration value) {
    if (value.isZero() || value.isNegative()) {
      problems.add(error(source, key, "must be longer than 0, was " + value));
    }
  }

  private static Violation error(String source, String path, String message) {
    return Violation.error(RULE, source, path, message);
  }
}
