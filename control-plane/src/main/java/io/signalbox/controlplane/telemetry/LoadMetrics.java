package io.signalbox.controlplane.telemetry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;

/** What the LRS server counts: reports used, entries refused by reason, store writes that failed. */
final class LoadMetrics {

  static final String UNKNOWN_CLUSTER = "unknown_cluster";
  static final String UNKNOWN_LOCALITY = "unknown_locality";
  static final String ABSURD_VALUE = "absurd_value";
  static final String UNKNOWN_ENDPOINT = "unknown_endpoint";

  private final Counter reports;
  private final Map<String, Counter> refused;
  private final Counter writeFailures;

  LoadMetrics(MeterRegistry meters) {
    reports = Counter.builder("signalbox_lrs_reports").description("load reports received").register(meters);
    refused = Map.of(
        UNKNOWN_CLUSTER, refusal(meters, UNKNOWN_CLUSTER),
        UNKNOWN_LOCALITY, refusal(meters, UNKNOWN_LOCALITY),
        ABSURD_VALUE, refusal(meters, ABSURD_VALUE),
        UNKNOWN_ENDPOINT, refusal(meters, UNKNOWN_ENDPOINT));
    writeFailures = Counter.builder("signalbox_lrs_write_failures")
        .description("intervals of load-report rows the store did not take").register(meters);
  }

  private static Counter refusal(MeterRegistry meters, String reason) {
    return Counter.builder("signalbox_lrs_refused")
        .description("load-report entries refused: a cluster, locality or endpoint Signalbox does not serve, or a value out of range")
        .tag("reason", reason).register(meters);
  }

  void report() {
    reports.increment();
  }

  void refused(String reason) {
    refused.get(reason).increment();
  }

  void writeFailed() {
    writeFailures.increment();
  }

  double refusedCount(String reason) {
    return refused.get(reason).count();
  }
}
