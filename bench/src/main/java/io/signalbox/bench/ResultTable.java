package io.signalbox.bench;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The load tool's report: one column per control plane, then the first one's ratio to each of the
 * others (with {@code --target signalbox,careful,plain}: Signalbox ÷ careful and Signalbox ÷ plain).
 * Rows measured once per run come first, then each measured phase's rows.
 */
final class ResultTable {

  private record Row<T>(String label, ToDoubleFunction<T> value, String format) {}

  private static final List<Row<RunResult>> RUN_ROWS = List.of(
      new Row<>("server start -> serving (ms)", RunResult::startMillis, "%.0f"),
      new Row<>("  server CPU until serving (ms)", RunResult::startCpuMillis, "%.0f"),
      new Row<>("connect storm (ms)", RunResult::stormMillis, "%.0f"),
      new Row<>("heap/client after GC (KB)", r -> r.heapPerClientBytes() / 1024.0, "%.1f"),
      new Row<>("stream errors", r -> r.errors(), "%.0f"),
      new Row<>("clients not ready (storm)", r -> r.notReady(), "%.0f"));

  // The rows the targets are stated in, shown in every round's table and repeated by the summary.
  private static final Row<RunResult.Phase> P50 = new Row<>("change p50 (ms)", p -> p.latencyPercentile(50), "%.1f");
  private static final Row<RunResult.Phase> P99 = new Row<>("change p99 (ms)", p -> p.latencyPercentile(99), "%.1f");
  private static final Row<RunResult.Phase> CPU =
      new Row<>("server CPU ms/change", RunResult.Phase::cpuMillisPerChange, "%.1f");
  private static final Row<RunResult.Phase> CPU_EXCL_JIT = new Row<>("server CPU excl. JIT ms/change",
      p -> p.cpuMillisPerChange() - p.jitCpuMillisPerChange(), "%.1f");
  private static final Row<RunResult.Phase> CPU_WITH_DATABASE = new Row<>("server + PostgreSQL CPU ms/change",
      p -> p.cpuMillisPerChange() + p.databaseCpuMillisPerChange(), "%.1f");

  private static final List<Row<RunResult.Phase>> PHASE_ROWS = List.of(
      P50,
      P99,
      new Row<>("change max (ms)", p -> p.latencyPercentile(100), "%.1f"),
      new Row<>("bytes/change/client", RunResult.Phase::bytesPerChangePerClient, "%.0f"),
      new Row<>("responses/change/client", RunResult.Phase::responsesPerChangePerClient, "%.2f"),
      CPU,
      new Row<>("  of which JIT compiler", RunResult.Phase::jitCpuMillisPerChange, "%.1f"),
      CPU_EXCL_JIT,
      new Row<>("its PostgreSQL CPU ms/change", RunResult.Phase::databaseCpuMillisPerChange, "%.1f"),
      CPU_WITH_DATABASE,
      new Row<>("load tool CPU ms/change", RunResult.Phase::loadToolCpuMillisPerChange, "%.1f"),
      new Row<>("client-changes not converged", p -> p.unconverged(), "%.0f"),
      new Row<>("serializations/change", p -> p.serializations() < 0 || p.changes().isEmpty()
          ? Double.NaN : p.serializations() / (double) p.changes().size(), "%.1f"));

  /** What issue 17's targets are stated in: the rows {@link #summary} repeats across rounds. */
  private static final List<Row<RunResult.Phase>> SUMMARY_ROWS = List.of(CPU_WITH_DATABASE, CPU, CPU_EXCL_JIT, P50,
      P99);

  private static final int LABEL = 34;
  private static final int COLUMN = 17;

  private ResultTable() {}

  /** @param title what was run, e.g. "1000 sotw clients, 100 clusters x 10 endpoints, round 1 of 2" */
  static String render(String title, ChangePlan plan, List<RunResult> results) {
    StringBuilder out = new StringBuilder();
    out.append(title).append('\n');
    out.append(String.format(Locale.ROOT, "changes: %d unmeasured, %d cold (measured), %d unmeasured, %d warm (measured)%n",
        plan.coldAfter(), plan.cold(), plan.warmup(), plan.warm()));
    out.append(pad("metric", LABEL));
    for (RunResult r : results) {
      out.append(column(r.target().label()));
    }
    for (RunResult r : results.subList(1, results.size())) {
      out.append(column(results.get(0).target().label().replace("signalbox", "sb") + "/" + r.target().label()));
    }
    out.append('\n');
    for (Row<RunResult> row : RUN_ROWS) {
      line(out, row.label(), row, results.stream().map(Optional::of).toList());
    }
    for (String phase : List.of("cold", "warm")) {
      List<Optional<RunResult.Phase>> phases = results.stream().map(r -> r.phase(phase)).toList();
      if (phases.stream().allMatch(Optional::isEmpty)) {
        continue;
      }
      int changes = phases.stream().flatMap(Optional::stream).findFirst().map(p -> p.changes().size()).orElse(0);
      out.append(String.format(Locale.ROOT, "%s phase (%d changes)%n", phase, changes));
      for (Row<RunResult.Phase> row : PHASE_ROWS) {
        line(out, "  " + row.label(), row, phases);
      }
    }
    return out.toString();
  }

  /**
   * After several rounds, the first target's ratio to each other one, round by round and their
   * median, for the rows the targets are stated in: one round's ratio is one compile timeline's,
   * and a verdict needs the spread. Empty for one round or one target.
   */
  static String summary(List<List<RunResult>> rounds) {
    if (rounds.size() < 2 || rounds.get(0).size() < 2) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    List<RunResult> first = rounds.get(0);
    for (int other = 1; other < first.size(); other++) {
      String ratio = first.get(0).target().label().replace("signalbox", "sb") + "/"
          + first.get(other).target().label();
      out.append(String.format(Locale.ROOT, "%s over %d rounds, round by round, then the median%n", ratio,
          rounds.size()));
      for (String phase : List.of("cold", "warm")) {
        if (first.get(0).phase(phase).isEmpty()) {
          continue;
        }
        out.append(phase).append(" phase\n");
        for (Row<RunResult.Phase> row : SUMMARY_ROWS) {
          double[] ratios = new double[rounds.size()];
          for (int i = 0; i < ratios.length; i++) {
            ratios[i] = ratio(rounds.get(i), other, phase, row.value());
          }
          out.append(pad("  " + row.label(), LABEL + 2));
          for (double r : ratios) {
            out.append(String.format(Locale.ROOT, " %6s", twoPlaces(r)));
          }
          out.append(String.format(Locale.ROOT, "   median %s%n", twoPlaces(median(ratios))));
        }
      }
    }
    return out.toString();
  }

  private static String twoPlaces(double ratio) {
    return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio);
  }

  /** The first result's {@code value} over the {@code other}th's in one round; NaN if either is missing or 0. */
  private static double ratio(List<RunResult> round, int other, String phase,
      ToDoubleFunction<RunResult.Phase> value) {
    Optional<RunResult.Phase> a = round.get(0).phase(phase);
    Optional<RunResult.Phase> b = round.get(other).phase(phase);
    if (a.isEmpty() || b.isEmpty()) {
      return Double.NaN;
    }
    double x = value.applyAsDouble(a.get());
    double y = value.applyAsDouble(b.get());
    return Double.isNaN(x) || Double.isNaN(y) || y == 0 ? Double.NaN : x / y;
  }

  /** The median of the defined values (the mean of the middle two for an even count); NaN if none. */
  static double median(double[] values) {
    double[] v = java.util.Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static <T> void line(StringBuilder out, String label, Row<T> row, List<Optional<T>> values) {
    out.append(pad(label, LABEL));
    double[] v = values.stream().mapToDouble(o -> o.map(x -> row.value().applyAsDouble(x)).orElse(Double.NaN)).toArray();
    for (double x : v) {
      out.append(column(Double.isNaN(x) ? "-" : String.format(Locale.ROOT, row.format(), x)));
    }
    for (int i = 1; i < v.length; i++) {
      boolean defined = !Double.isNaN(v[0]) && !Double.isNaN(v[i]) && v[i] != 0;
      out.append(column(defined ? String.format(Locale.ROOT, "%.3f", v[0] / v[i]) : "-"));
    }
    out.append('\n');
  }

  private static String pad(String text, int width) {
    return String.format(Locale.ROOT, "%-" + width + "s", text);
  }

  private static String column(String text) {
    return String.format(Locale.ROOT, "%" + COLUMN + "s", text);
  }
}
