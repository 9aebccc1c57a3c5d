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
 * The maps a newcomer reads first tell the truth: {@code docs/architecture.md}'s module table names
 * every package of every module's main code and no other, and the README's documentation list
 * links every page in {@code docs/}.
 */
class DocsIndexTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern TABLE_ROW = Pattern.compile("^\\| `([a-z-]+)/` \\| `([^`]+)` \\|");

  @Test
  void theModuleTableNamesEveryPackageOfEveryModuleBothWays() throws IOException {
    Set<String> documented = new TreeSet<>();
    for (String line : Files.readAllLines(ROOT.resolve("docs/architecture.md"))) {
      Matcher m = TABLE_ROW.matcher(line);
      if (m.find()) {
        documented.add(m.group(1) + " " + m.group(2).replace("…controlplane", "io.signalbox.controlplane"));
      }
    }
    Set<String> packages = new TreeSet<>();
    for (String module : new String[] {"validation", "yaml", "endpoint-sources", "snapshot-store", "control-plane",
        "bench"}) {
      Path src = ROOT.resolve(module).resolve("src/main/java");
      try (Stream<Path> files = Files.walk(src)) {
        files.filter(f -> f.toString().endsWith(".java"))
            .map(f -> src.relativize(f.getParent()).toString().replace('/', '.'))
            .forEach(p -> packages.add(module + " " + p));
      }
    }
    packages.add("proto signalbox.v1");

    assertThat(documented).as("packages in docs/architecture.md's module table").isEqualTo(packages);
  }

  @Test
  void theReadmeLinksEveryDoc() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    Set<String> unlinked = new TreeSet<>();
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.map(d -> "docs/" + d.getFileName()).filter(d -> d.endsWith(".md"))
          .filter(d -> !readme.contains("(" + d + ")")).forEach(unlinked::add);
    }

    assertThat(unlinked).as("docs the README's documentation list does not link").isEmpty();
  }
}
