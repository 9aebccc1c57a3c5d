package io.signalbox.controlplane.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/prometheus/signalbox-rules.yaml} against the server: every expression names only
 * series a running Signalbox exports (and docs/api.md documents), and, where promtool is installed,
 * the rules load and pass their promtool unit tests.
 */
class AlertRulesTest {

  static final Path RULES_DIR = Path.of("..", "deploy", "prometheus");
  static final Path RULES = RULES_DIR.resolve("signalbox-rules.yaml");
  private static final Pattern SERIES = Pattern.compile("signalbox_[a-z_]+");

  @TempDir Path dir;

  static List<JsonNode> rules() throws IOException {
    JsonNode file = new ObjectMapper(new YAMLFactory()).readTree(RULES.toFile());
    List<JsonNode> rules = new ArrayList<>();
    file.get("groups").forEach(g -> g.get("rules").forEach(rules::add));
    return rules;
  }

  static Set<String> seriesIn(String expr) {
    Set<String> names = new TreeSet<>();
    Matcher m = SERIES.matcher(expr);
    while (m.find()) {
      names.add(m.group());
    }
    return names;
  }

  @Test
  void theRulesAreTheOnesTheOperatorsAskedForEachWithSeverityAndText() throws IOException {
    List<JsonNode> rules = rules();

    assertThat(rules).extracting(r -> r.get("alert").asText()).containsExactly("SignalboxClientsBehind",
        "SignalboxStandingNacks", "SignalboxStoreUnavailable", "SignalboxHeldUpdateWaiting", "SignalboxNoLeader",
        "SignalboxCorrelatedErrors");
    assertThat(rules).allSatisfy(r -> {
      assertThat(r.path("labels").path("severity").asText()).isIn("warning", "critical");
      assertThat(r.path("annotations").path("summary").asText()).isNotBlank();
      assertThat(r.path("annotations").path("description").asText()).isNotBlank();
      assertThat(seriesIn(r.get("expr").asText())).isNotEmpty();
    });
  }

  @Test
  void everyExpressionUsesOnlySeriesTheServerExportsAndTheDocsList() throws Exception {
    Set<String> used = new TreeSet<>();
    for (JsonNode rule : rules()) {
      used.addAll(seriesIn(rule.get("expr").asText()));
    }
    Set<String> exported = new TreeSet<>();
    try (RunningSignalbox sb = RunningSignalbox.start(dir, "port: 0");
        AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "rules-1", "web")) {
      // Per-cluster load series exist for clusters that report load: turn it on for greeter.
      Path config = dir.resolve("signalbox.yaml");
      Files.writeString(config, Files.readString(config).replace("    connectTimeout: 1s\n",
          "    connectTimeout: 1s\n    loadReporting: true\n"));
      sb.server.reload();
      // Per-group series exist only while a group has clients.
      await().atMost(Duration.ofSeconds(10)).until(() ->
          !PrometheusText.parse(sb.get("/metrics").body()).samples("signalbox_clients_nacking").isEmpty()
          && !PrometheusText.parse(sb.get("/metrics").body()).samples("signalbox_load_correlated_errors").isEmpty());
      PrometheusText.parse(sb.get("/metrics").body()).samples().forEach(s -> exported.add(s.name()));
    }
    String doc = Files.readString(Path.of("..", "docs", "api.md"));
    Set<String> documented = new TreeSet<>();
    Matcher rows = Pattern.compile("(?m)^\\| `(signalbox_[a-z_]+)` \\|").matcher(doc);
    while (rows.find()) {
      documented.add(rows.group(1));
    }

    assertThat(used).hasSizeGreaterThanOrEqualTo(6);
    assertThat(exported).as("exported at /metrics").containsAll(used);
    assertThat(documented).as("documented in docs/api.md").containsAll(used);
  }

  @Test
  void promtoolLoadsTheRulesAndTheirUnitTestsPass() throws Exception {
    Optional<Path> promtool = onPath("promtool");
    Assumptions.assumeTrue(promtool.isPresent(), "promtool is not installed (Debian: package prometheus; "
        + ".ci/run installs it)");

    assertThat(run(promtool.get(), "check", "rules", "signalbox-rules.yaml")).contains("SUCCESS: 6 rules found");
    assertThat(run(promtool.get(), "test", "rules", "signalbox-rules.test.yaml")).contains("SUCCESS");
  }

  static Optional<Path> onPath(String program) {
    String path = System.getenv("PATH");
    return path == null ? Optional.empty() : Stream.of(path.split(File.pathSeparator))
        .map(d -> Path.of(d, program)).filter(Files::isExecutable).findFirst();
  }

  private static String run(Path program, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(program.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).directory(RULES_DIR.toFile()).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}
