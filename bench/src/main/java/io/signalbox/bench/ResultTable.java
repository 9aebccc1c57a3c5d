package io.signalbox.bench;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** The load tool's report: one column per control plane and, for two, their ratio. */
final class ResultTable {

  private record Row(String label, ToDoubleFunction<RunResult> value, String format) {}

  private static final List<Row> ROWS = List.of(
      new Row("connect storm (ms)", RunResult::stormMillis, "%.0f"),
      new Row("change p50 (ms)", r -> r.latencyPercentile(50), "%.1f"),
      new Row("change p99 (ms)", r -> r.latencyPercentile(99), "%.1f"),
      new Row("change max (ms)", r -> r.latencyPercentile(100), "%.1f"),
      new Row("bytes/change/client", RunResult::bytesPerChangePerClient, "%.0f"),
      new Row("responses/change/client", RunResult::responsesPerChangePerClient, "%.2f"),
      new Row("server CPU ms/change", RunResult::cpuMillisPerChange, "%.1f"),
      new Row("  of which JIT compiler", RunResult::jitCpuMillisPerChange, "%.1f"),
      new Row("server CPU excl. JIT ms/change", r -> r.cpuMillisPerChange() - r.jitCpuMillisPerChange(), "%.1f"),
      new Row("load tool CPU ms/change", RunResult::loadToolCpuMillisPerChange, "%.1f"),
      new Row("heap/client after GC (KB)", r -> r.heapPerClientBytes() / 1024.0, "%.1f"),
      new Row("stream errors", r -> r.errors(), "%.0f"),
      new Row("clients not ready (storm)", r -> r.notReady(), "%.0f"),
      new Row("client-changes not converged", r -> r.unconverged(), "%.0f"),
      new Row("serializations/change", r -> r.serializations() < 0 || r.changes().isEmpty()
          ? Double.NaN : r.serializations() / (double) r.changes().size(), "%.1f"));

  private ResultTable() {}

  static String render(List<RunResult> results) {
    StringBuilder out = new StringBuilder();
    RunResult first = results.get(0);
    out.append(String.format(Locale.ROOT, "%d %s clients, %d changes%n", first.clients(),
        first.mode().name().toLowerCase(Locale.ROOT), first.changes().size()));
    out.append(String.format(Locale.ROOT, "%-30s", "metric"));
    for (RunResult r : results) {
      out.append(String.format(Locale.ROOT, "%14s", r.target().name().toLowerCase(Locale.ROOT)));
    }
    if (results.size() == 2) {
      out.append(String.format(Locale.ROOT, "%14s", "ratio"));
    }
    out.append('\n');
    for (Row row : ROWS) {
      out.append(String.format(Locale.ROOT, "%-30s", row.label()));
      for (RunResult r : results) {
        out.append(String.format(Locale.ROOT, "%14s", String.format(Locale.ROOT, row.format(), row.value()
            .applyAsDouble(r))));
      }
      if (results.size() == 2) {
        double a = row.value().applyAsDouble(results.get(0));
        double b = row.value().applyAsDouble(results.get(1));
        out.append(String.format(Locale.ROOT, "%14s", b == 0 || Double.isNaN(a) || Double.isNaN(b) ? "-"
            : String.format(Locale.ROOT, "%.3f", a / b)));
      }
      out.append('\n');
    }
    return out.toString();
  }
}
