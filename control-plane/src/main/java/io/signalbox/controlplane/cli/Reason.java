package io.signalbox.controlplane.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --reason R} of an operator action: sent in its request body and kept in the audit log. */
final class Reason {

  @Option(names = "--reason", paramLabel = "R", description = "Why; recorded in the audit log.")
  String reason;

  /** A request body that carries the reason when one was given; the caller may add to it. */
  Map<String, Object> body() {
    Map<String, Object> body = new LinkedHashMap<>();
    if (reason != null) {
      body.put("reason", reason);
    }
    return body;
  }
}
