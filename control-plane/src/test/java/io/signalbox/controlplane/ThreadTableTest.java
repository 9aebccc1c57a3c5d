package io.signalbox.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's thread table names every thread Signalbox's code names, and no other:
 * a thread added without its row (owner, what it may block on) or a row left behind fails here.
 */
class ThreadTableTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| `[^`]+/");
  /** Guava's builder's name format, or a name set on the thread it made (one that ends in a file's name). */
  private static final Pattern NAMED = Pattern.compile(
      "setNameFormat\\(\"([^\"]+)\"\\)|setName\\(\"([^\"]+)\"");

  @Test
  void theThreadTableNamesEveryNamedThreadBothWays() throws IOException {
    Set<String> documented = new TreeSet<>();
    String doc = Files.readString(ROOT.resolve("docs/architecture.md"));
    String threads = doc.substring(doc.indexOf("## Threads"), doc.indexOf("## Modules"));
    for (String line : threads.lines().toList()) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        documented.add(prefix(m.group(1)));
      }
    }
    Set<String> named = new TreeSet<>();
    for (String module : new String[] {"control-plane", "endpoint-sources", "snapshot-store"}) {
      try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/main/java"))) {
        for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          Matcher m = NAMED.matcher(Files.readString(f));
          while (m.find()) {
            named.add(prefix(m.group(1) != null ? m.group(1) : m.group(2)));
          }
        }
      }
    }

    assertThat(documented).as("threads in docs/architecture.md's thread table").isEqualTo(named);
  }

  /** What a name is before its variable part: {@code admin-api-%d}, {@code watched-file:<file>} and {@code watched-file:}. */
  private static String prefix(String name) {
    return name.replaceAll("(%d|<[^>]+>)$", "");
  }
}
