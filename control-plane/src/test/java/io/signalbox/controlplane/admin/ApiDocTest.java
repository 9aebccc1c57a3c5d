package io.signalbox.controlplane.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code docs/api.md}'s route table and the routes Javalin actually holds agree, both ways. */
class ApiDocTest {

  private static final Pattern ROW = Pattern.compile("^\\| (GET|POST|PUT|PATCH|DELETE) \\| `([^`]+)` \\| ([^|]+?) \\|");

  @TempDir Path dir;

  static String documented(Access access) {
    if (access == null) {
      return "(registered without an access level)";
    }
    return switch (access) {
      case PUBLIC -> "none";
      case METRICS -> "none or viewer";
      case READ, OPERATE, REGISTER -> access.label();
    };
  }

  @Test
  void everyRouteIsDocumentedWithItsRoleAndEveryDocumentedRouteExists() throws IOException {
    Set<String> documented = new TreeSet<>();
    for (String line : Files.readAllLines(Path.of("..", "docs", "api.md"))) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        documented.add(m.group(1) + " " + m.group(2) + " " + m.group(3).strip());
      }
    }
    Set<String> registered;
    try (RunningSignalbox sb = RunningSignalbox.start(dir, "port: 0")) {
      registered = sb.server.admin().routes().stream()
          .map(r -> r.method() + " " + r.path() + " " + documented(r.access()))
          .collect(Collectors.toCollection(TreeSet::new));
    }
    assertThat(registered).hasSizeGreaterThanOrEqualTo(13);
    assertThat(documented).as("documented in docs/api.md").containsExactlyElementsOf(registered);
  }

  @Test
  void theGrafanaDashboardUsesOnlyDocumentedSeries() throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "api.md"));
    Set<String> documentedSeries = new TreeSet<>();
    Matcher rows = Pattern.compile("(?m)^\\| `(signalbox_[a-z_]+)` \\|").matcher(doc);
    while (rows.find()) {
      documentedSeries.add(rows.group(1));
    }
    Set<String> used = new TreeSet<>();
    Matcher names = Pattern.compile("signalbox_[a-z_]+").matcher(
        Files.readString(Path.of("..", "deploy", "grafana", "signalbox.json")));
    while (names.find()) {
      used.add(names.group());
    }
    assertThat(used).hasSizeGreaterThan(10);
    // A summary's _sum, _count and _max belong to the documented family.
    assertThat(used).allSatisfy(name -> assertThat(documentedSeries)
        .containsAnyOf(name, name.replaceAll("_(sum|count|max)$", "")));
  }
}
