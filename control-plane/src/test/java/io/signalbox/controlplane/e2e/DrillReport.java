package io.signalbox.controlplane.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a drill measured, as Markdown: printed to the test's output and written to
 * {@code target/drills/<drill>.md}, from where the full-scale figures go into
 * {@code docs/reliability.md}.
 */
final class DrillReport {

  private final String drill;
  private final DrillScale scale;
  private final List<String> lines = new ArrayList<>();
  private final List<String> rows = new ArrayList<>();
  private String header;

  DrillReport(String drill, DrillScale scale) {
    this.drill = drill;
    this.scale = scale;
  }

  /** The columns of the per-round table. */
  void columns(String... names) {
    header = "| " + String.join(" | ", names) + " |\n|" + "---|".repeat(names.length);
  }

  void row(Object... cells) {
    List<String> text = new ArrayList<>();
    for (Object c : cells) {
      text.add(c instanceof Duration d ? seconds(d) : String.valueOf(c));
    }
    rows.add("| " + String.join(" | ", text) + " |");
  }

  /** One figure, e.g. {@code line("publishing resumed after %s", seconds(d))}. */
  void line(String format, Object... args) {
    lines.add("- " + String.format(Locale.ROOT, format, args));
  }

  /** min / median / max of some durations, in seconds. */
  static String spread(List<Duration> values) {
    if (values.isEmpty()) {
      return "n/a";
    }
    List<Duration> sorted = values.stream().sorted().toList();
    return "min " + seconds(sorted.get(0)) + ", median " + seconds(sorted.get(sorted.size() / 2)) + ", max "
        + seconds(sorted.get(sorted.size() - 1));
  }

  static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.2f s", d.toMillis() / 1000.0);
  }

  /** Prints and writes the report; returns its text. */
  String write() {
    StringBuilder out = new StringBuilder();
    out.append("### ").append(drill).append(" (scale ").append(scale.name()).append(", seed ").append(scale.seed())
        .append(", ").append(Instant.now()).append(")\n\n");
    out.append("Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, ")
        .append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.arch")).append(", Java ")
        .append(System.getProperty("java.version")).append("\n\n");
    lines.forEach(l -> out.append(l).append('\n'));
    if (header != null && !rows.isEmpty()) {
      out.append('\n').append(header).append('\n');
      rows.forEach(r -> out.append(r).append('\n'));
    }
    String text = out.toString();
    System.out.println(text);
    try {
      Path dir = Path.of("target", "drills");
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(drill + ".md"), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text;
  }
}
