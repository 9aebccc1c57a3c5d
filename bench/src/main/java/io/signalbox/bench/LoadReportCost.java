package io.signalbox.bench;

import java.util.Locale;

/**
 * What load reports cost the server: the same fleet's steady window without and with them (issue
 * 30: at most 5 % of one core and 10 KB of heap per client more). The runs are apart, one after
 * the other on the same machine, so on a busy machine the difference carries the machine's noise:
 * run several rounds.
 */
final class LoadReportCost {

  private LoadReportCost() {}

  static String render(String title, RunResult without, RunResult with) {
    RunResult.Steady off = without.steady();
    RunResult.Steady on = with.steady();
    int clients = with.clients();
    StringBuilder out = new StringBuilder();
    out.append(title).append('\n');
    row(out, "steady window, s", "%.1f", off.windowMillis() / 1000, on.windowMillis() / 1000, null);
    row(out, "server CPU, ms", "%.0f", off.cpuMillis(), on.cpuMillis(), null);
    row(out, "  of it JIT, ms", "%.0f", off.jitCpuMillis(), on.jitCpuMillis(), null);
    row(out, "server CPU, % of a core", "%.2f", off.cpuPercentOfCore(), on.cpuPercentOfCore(),
        String.format(Locale.ROOT, "%+.2f", on.cpuPercentOfCore() - off.cpuPercentOfCore()));
    row(out, "+ PostgreSQL, % of a core", "%.2f", off.cpuWithDatabasePercentOfCore(),
        on.cpuWithDatabasePercentOfCore(), String.format(Locale.ROOT, "%+.2f",
            on.cpuWithDatabasePercentOfCore() - off.cpuWithDatabasePercentOfCore()));
    row(out, "server heap after GC, MB", "%.1f", off.heapBytes() / 1048576.0, on.heapBytes() / 1048576.0,
        String.format(Locale.ROOT, "%+.2f KB per client", (on.heapBytes() - off.heapBytes()) / 1024.0 / clients));
    row(out, "load tool CPU, % of a core", "%.2f", 100 * off.loadToolCpuMillis() / off.windowMillis(),
        100 * on.loadToolCpuMillis() / on.windowMillis(), null);
    row(out, "reports sent in the window", "%d", off.reportsSent(), on.reportsSent(), null);
    row(out, "reports sent / used in all", "%s", off.reportsSentInAll() + " / " + off.reportsUsed(),
        on.reportsSentInAll() + " / " + on.reportsUsed(), null);
    row(out, "report entries refused", "%d", off.reportsRefused(), on.reportsRefused(), null);
    row(out, "then one /metrics scrape, ms", "%.0f", off.scrapeMillis(), on.scrapeMillis(), null);
    row(out, "  its CPU (+ PostgreSQL), ms", "%d", off.scrapeCpuMillis(), on.scrapeCpuMillis(), null);
    row(out, "LRS / ADS stream errors", "%s", without.errors(), with.reportErrors() + " / " + with.errors(), null);
    row(out, "load average at the end", "%s", off.loadAverage(), on.loadAverage(), null);
    return out.toString();
  }

  private static void row(StringBuilder out, String label, String format, Object off, Object on, String extra) {
    out.append(String.format(Locale.ROOT, "  %-28s %16s %16s", label, String.format(Locale.ROOT, format, off),
        String.format(Locale.ROOT, format, on)));
    if (extra != null) {
      out.append("   extra ").append(extra);
    }
    out.append('\n');
  }
}
