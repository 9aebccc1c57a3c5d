package io.signalbox.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.Inline;
import io.signalbox.model.LbPolicy;
import io.signalbox.validation.Violation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrictYamlTest {

  record Outlier(Integer consecutive5xx, Duration interval) {}

  record Cluster(String name, LbPolicy lbPolicy, Duration connectTimeout, Outlier outlierDetection, int weight) {}

  record Doc(List<Cluster> clusters, Map<String, List<Integer>> ports, Boolean enabled, Long size, Path file) {}

  private static List<String> problems(Parsed<?> parsed) {
    return parsed.violations().stream().map(Violation::toString).toList();
  }

  @Test
  void bindsNestedRecordsListsMapsAndScalars() {
    Parsed<Doc> parsed =
        StrictYaml.parse(
            """
            clusters:
              - name: a
                lbPolicy: RING_HASH
                connectTimeout: 250ms
                outlierDetection: { consecutive5xx: 5, interval: 1.5s }
                weight: 3
            ports: { web: [80, 443] }
            enabled: true
            size: 12345678901
            file: ./x.yaml
            """,
            "f.yaml",
            Doc.class);

    assertThat(parsed)
        .isEqualTo(
            Parsed.ok(
                new Doc(
                    List.of(new Cluster("a", LbPolicy.RING_HASH, Duration.ofMillis(250),
                        new Outlier(5, Duration.ofMillis(1500)), 3)),
                    Map.of("web", List.of(80, 443)),
                    true,
                    12345678901L,
                    Path.of("./x.yaml"))));
  }

  @Test
  void missingKeysBindToNullAndPrimitivesToZero() {
    Parsed<Doc> parsed = StrictYaml.parse("clusters: [ { name: a } ]\n", "f.yaml", Doc.class);

    assertThat(parsed)
        .isEqualTo(Parsed.ok(new Doc(List.of(new Cluster("a", null, null, null, 0)), null, null, null, null)));
  }

  @Test
  void emptyDocumentIsAnEmptyMapping() {
    assertThat(StrictYaml.parse("", "f.yaml", Doc.class)).isEqualTo(Parsed.ok(new Doc(null, null, null, null, null)));
  }

  @Test
  void reportsUnknownKeyWithLineColumnPathAndSuggestion() {
    Parsed<Doc> parsed =
        StrictYaml.parse(
            """
            clusters:
              - name: a
                conectTimeout: 1s
            """,
            "f.yaml",
            Doc.class);

    assertThat(problems(parsed))
        .containsExactly(
            "f.yaml: line 3, column 5: clusters[0].conectTimeout: unknown key 'conectTimeout' (did you mean 'connectTimeout'?) [parse]");
  }

  @Test
  void listsTheKnownKeysWhenNoneIsClose() {
    Parsed<Outlier> parsed = StrictYaml.parse("zzz: 1\n", "f.yaml", Outlier.class);

    assertThat(problems(parsed))
        .containsExactly("f.yaml: line 1, column 1: zzz: unknown key 'zzz' (expected one of consecutive5xx, interval) [parse]");
  }

  @Test
  void reportsEveryProblemAtOnceInFileOrder() {
    Parsed<Doc> parsed =
        StrictYaml.parse(
            """
            clusters:
              - name: a
                lbPolicy: ROUND
                connectTimeout: fast
                weight: abc
                outlierDetection: [1]
            ports: { web: [x] }
            enabled: yes
            size: 1.5
            """,
            "f.yaml",
            Doc.class);

    assertThat(problems(parsed))
        .containsExactly(
            "f.yaml: line 3, column 15: clusters[0].lbPolicy: expected one of ROUND_ROBIN, LEAST_REQUEST, RING_HASH, MAGLEV, RANDOM, WEIGHTED_ROUND_ROBIN, was 'ROUND' [parse]",
            "f.yaml: line 4, column 21: clusters[0].connectTimeout: expected a duration like 250ms, 1s, 2m, 1h, was 'fast' [parse]",
            "f.yaml: line 5, column 13: clusters[0].weight: expected an integer, was 'abc' [parse]",
            "f.yaml: line 6, column 23: clusters[0].outlierDetection: expected a mapping, was a list [parse]",
            "f.yaml: line 7, column 16: ports.web[0]: expected an integer, was 'x' [parse]",
            "f.yaml: line 8, column 10: enabled: expected true or false, was 'yes' [parse]",
            "f.yaml: line 9, column 7: size: expected an integer, was '1.5' [parse]");
  }

  record Penalty(Double penalty, double factor) {}

  @Test
  void bindsFiniteNumbersAndRefusesTheRest() {
    assertThat(StrictYaml.parse("penalty: 0.25\nfactor: 2\n", "f.yaml", Penalty.class))
        .isEqualTo(Parsed.ok(new Penalty(0.25, 2.0)));
    assertThat(problems(StrictYaml.parse("penalty: NaN\nfactor: 1e999\n", "f.yaml", Penalty.class)))
        .containsExactly(
            "f.yaml: line 1, column 10: penalty: expected a number, was 'NaN' [parse]",
            "f.yaml: line 2, column 9: factor: expected a number, was '1e999' [parse]");
  }

  @Test
  void reportsWrongShapes() {
    Parsed<Doc> parsed = StrictYaml.parse("clusters: a\nenabled: { x: 1 }\n", "f.yaml", Doc.class);

    assertThat(problems(parsed))
        .containsExactly(
            "f.yaml: line 1, column 11: clusters: expected a list, was 'a' [parse]",
            "f.yaml: line 2, column 10: enabled: expected true or false, was a mapping [parse]");
  }

  @Test
  void reportsEmptyListItems() {
    Parsed<Doc> parsed = StrictYaml.parse("clusters:\n  - name: a\n  -\n", "f.yaml", Doc.class);

    assertThat(problems(parsed)).containsExactly("f.yaml: line 3, column 4: clusters[1]: expected a list item, was null [parse]");
  }

  @Test
  void reportsDuplicateKeys() {
    Parsed<Outlier> parsed = StrictYaml.parse("interval: 1s\ninterval: 2s\n", "f.yaml", Outlier.class);

    assertThat(problems(parsed)).containsExactly("f.yaml: line 2, column 1: duplicate key 'interval' [parse]");
  }

  @Test
  void reportsSyntaxErrorsWithTheirLine() {
    Parsed<Doc> parsed = StrictYaml.parse("clusters:\n  - { name: a, \n", "f.yaml", Doc.class);

    assertThat(problems(parsed))
        .containsExactly(
            "f.yaml: line 3, column 1: YAML syntax error: expected the node content, but found '<stream end>' (while parsing a flow node) [parse]");
  }

  @Test
  void rejectsASecondDocument() {
    Parsed<Outlier> parsed = StrictYaml.parse("interval: 1s\n---\ninterval: 2s\n", "f.yaml", Outlier.class);

    assertThat(problems(parsed))
        .containsExactly("f.yaml: line 3, column 1: expected a single YAML document, found another [parse]");
  }

  record Match(String prefix, String path) {}

  @Test
  void keepsQuotedEmptyStringsAndTreatsEmptyValuesAsAbsent() {
    assertThat(StrictYaml.parse("prefix: \"\"\npath:\n", "f.yaml", Match.class))
        .isEqualTo(Parsed.ok(new Match("", null)));
  }

  record Text(String a, String b, String c, String d) {}

  @Test
  void keepsScalarsThatLookLikeNumbersAsWrittenForStrings() {
    assertThat(StrictYaml.parse("a: 0123\nb: 1e3\nc: 10.0.0.1\nd: true\n", "f.yaml", Text.class))
        .isEqualTo(Parsed.ok(new Text("0123", "1e3", "10.0.0.1", "true")));
  }

  @Test
  void rejectsAliasesRatherThanBindingTheirName() {
    Parsed<Text> parsed = StrictYaml.parse("a: &x hello\nb: *x\n", "f.yaml", Text.class);

    assertThat(problems(parsed))
        .containsExactly("f.yaml: line 2, column 4: YAML aliases are not supported, write the value out (found '*x') [parse]");
  }

  @Test
  void refusesAnEnumInAnotherCaseNamingTheRightOne() {
    Parsed<Cluster> parsed = StrictYaml.parse("lbPolicy: least_request\n", "f.yaml", Cluster.class);

    assertThat(problems(parsed)).containsExactly(
        "f.yaml: line 1, column 11: lbPolicy: expected one of ROUND_ROBIN, LEAST_REQUEST, RING_HASH, MAGLEV, RANDOM, "
            + "WEIGHTED_ROUND_ROBIN, was 'least_request' (names are case-sensitive: write LEAST_REQUEST) [parse]");
  }

  @Test
  void refusesQuotedNumbersAndBooleansSayingTheyAreStrings() {
    Parsed<Doc> parsed = StrictYaml.parse("""
        clusters: [ { name: a, weight: "3" } ]
        enabled: "true"
        size: '12'
        """, "f.yaml", Doc.class);

    assertThat(problems(parsed)).containsExactly(
        "f.yaml: line 1, column 32: clusters[0].weight: expected an integer, was the string \"3\" (write it without quotes) [parse]",
        "f.yaml: line 2, column 10: enabled: expected true or false, was the string \"true\" (write it without quotes) [parse]",
        "f.yaml: line 3, column 7: size: expected an integer, was the string \"12\" (write it without quotes) [parse]");
  }

  @Test
  void refusesYaml11BooleansAndQuotedNumbersInJsonToo() {
    assertThat(problems(StrictYaml.parse("enabled: on\n", "f.yaml", Doc.class)))
        .containsExactly("f.yaml: line 1, column 10: enabled: expected true or false, was 'on' [parse]");
    assertThat(problems(StrictYaml.parse("{\"size\": \"12\"}", "f.json", Doc.class)))
        .containsExactly("f.json: line 1, column 10: size: expected an integer, was the string \"12\" (write it without quotes) [parse]");
  }

  /** Written by name or by its own text; the text of one may be the name of another. */
  enum Mode {
    FAST("quick"), QUICK("slow"), SLOW("-");

    private final String text;

    Mode(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  record Setting(Mode mode) {}

  @Test
  void matchesAnEnumByNameOrTextTheFirstDeclaredWinning() {
    assertThat(StrictYaml.parse("mode: ' FAST '\n", "f.yaml", Setting.class)).isEqualTo(Parsed.ok(new Setting(Mode.FAST)));
    assertThat(StrictYaml.parse("mode: quick\n", "f.yaml", Setting.class)).isEqualTo(Parsed.ok(new Setting(Mode.FAST)));
    assertThat(StrictYaml.parse("mode: QUICK\n", "f.yaml", Setting.class)).isEqualTo(Parsed.ok(new Setting(Mode.QUICK)));
    assertThat(StrictYaml.parse("mode: slow\n", "f.yaml", Setting.class)).isEqualTo(Parsed.ok(new Setting(Mode.QUICK)));
    assertThat(StrictYaml.parse("mode: '-'\n", "f.yaml", Setting.class)).isEqualTo(Parsed.ok(new Setting(Mode.SLOW)));
    assertThat(problems(StrictYaml.parse("mode: medium\n", "f.yaml", Setting.class))).containsExactly(
        "f.yaml: line 1, column 7: mode: expected one of quick, slow, -, was 'medium' [parse]");
  }

  @Test
  void readsDurationsInEveryUnit() {
    assertThat(StrictYaml.parseDuration("250ms")).contains(Duration.ofMillis(250));
    assertThat(StrictYaml.parseDuration("1s")).contains(Duration.ofSeconds(1));
    assertThat(StrictYaml.parseDuration("1.5s")).contains(Duration.ofMillis(1500));
    assertThat(StrictYaml.parseDuration("2m")).contains(Duration.ofMinutes(2));
    assertThat(StrictYaml.parseDuration("1h")).contains(Duration.ofHours(1));
    assertThat(StrictYaml.parseDuration("0s")).contains(Duration.ZERO);
    assertThat(StrictYaml.parseDuration("0")).contains(Duration.ZERO);
    assertThat(StrictYaml.parseDuration("5")).isEmpty();
    assertThat(StrictYaml.parseDuration("-1s")).isEmpty();
    assertThat(StrictYaml.parseDuration("1d")).isEmpty();
    assertThat(StrictYaml.parseDuration("fast")).isEmpty();
  }

  @Test
  void aJsonDocumentBindsAsItsYamlFormDoes() {
    String json = """
        {"clusters": [{"name": "a", "lbPolicy": "RING_HASH", "connectTimeout": "250ms",
                       "outlierDetection": {"consecutive5xx": 5, "interval": "1.5s"}, "weight": 3}],
         "ports": {"web": [80, 443]}, "enabled": true, "size": 12345678901, "file": "./x.yaml"}
        """;
    String yaml = """
        clusters:
          - { name: a, lbPolicy: RING_HASH, connectTimeout: 250ms, outlierDetection: { consecutive5xx: 5, interval: 1.5s }, weight: 3 }
        ports: { web: [80, 443] }
        enabled: true
        size: 12345678901
        file: ./x.yaml
        """;

    Parsed<Doc> fromJson = StrictYaml.parse(json, "f.json", Doc.class);

    assertThat(fromJson).isInstanceOf(Parsed.Ok.class).isEqualTo(StrictYaml.parse(yaml, "f.json", Doc.class));
  }

  @Test
  void aJsonDocumentsProblemsHaveTheirLineAndColumn() {
    Parsed<Doc> duplicate = StrictYaml.parse("{\"enabled\": true,\n \"enabled\": false}", "f.json", Doc.class);
    Parsed<Doc> wrongType = StrictYaml.parse("{\"size\": \"big\"}", "f.json", Doc.class);

    assertThat(problems(duplicate)).containsExactly("f.json: line 2, column 2: duplicate key 'enabled' [parse]");
    assertThat(problems(wrongType)).singleElement().asString().startsWith("f.json: line 1, column 10: ");
  }

  @Test
  void aFlowMappingThatIsNotJsonIsReadAsYaml() {
    Parsed<Doc> flow = StrictYaml.parse("{ enabled: true, size: 3 } # a comment", "f.yaml", Doc.class);
    Parsed<Doc> broken = StrictYaml.parse("{\"enabled\": true,\n", "f.yaml", Doc.class);

    assertThat(flow).isInstanceOf(Parsed.Ok.class);
    assertThat(((Parsed.Ok<Doc>) flow).value().enabled()).isTrue();
    assertThat(((Parsed.Ok<Doc>) flow).value().size()).isEqualTo(3L);
    // Not JSON either: YAML reports the problem, as for any YAML file.
    assertThat(problems(broken)).singleElement().asString().startsWith("f.yaml: line ").contains("YAML syntax error");
  }

  record Timing(Duration connectTimeout, Duration drainTimeout) {
    Timing {
      if (connectTimeout != null && drainTimeout != null && drainTimeout.compareTo(connectTimeout) < 0) {
        throw new IllegalArgumentException("drainTimeout must not be shorter than connectTimeout");
      }
    }
  }

  record Grouped(String name, @Inline Timing timing, @Inline Outlier outlier) {}

  record Groups(List<Grouped> items) {}

  @Test
  void readsAnInlineGroupsKeysAtItsParentsLevel() {
    assertThat(StrictYaml.parse("name: a\nconnectTimeout: 1s\ninterval: 2s\ndrainTimeout: 30s\n", "f.yaml",
        Grouped.class))
        .isEqualTo(Parsed.ok(new Grouped("a", new Timing(Duration.ofSeconds(1), Duration.ofSeconds(30)),
            new Outlier(null, Duration.ofSeconds(2)))));
  }

  @Test
  void bindsAnInlineGroupNoKeyOfWhichIsWrittenAsAnEmptyOne() {
    assertThat(StrictYaml.parse("name: a\n", "f.yaml", Grouped.class))
        .isEqualTo(Parsed.ok(new Grouped("a", new Timing(null, null), new Outlier(null, null))));
  }

  @Test
  void refusesAnInlineGroupsNameAsAKeyAndOffersItsSettings() {
    Parsed<Grouped> parsed = StrictYaml.parse("name: a\ntiming: { connectTimeout: 1s }\nintervall: 1s\n", "f.yaml",
        Grouped.class);

    assertThat(problems(parsed)).containsExactly(
        "f.yaml: line 2, column 1: timing: unknown key 'timing' (expected one of name, connectTimeout, drainTimeout, "
            + "consecutive5xx, interval) [parse]",
        "f.yaml: line 3, column 1: intervall: unknown key 'intervall' (did you mean 'interval'?) [parse]");
  }

  @Test
  void reportsAnInlineGroupsRefusalWhereItsParentIsWritten() {
    Parsed<Groups> parsed = StrictYaml.parse("items:\n  - name: a\n    connectTimeout: 5s\n    drainTimeout: 1s\n",
        "f.yaml", Groups.class);

    assertThat(problems(parsed)).containsExactly(
        "f.yaml: line 2, column 5: items[0]: drainTimeout must not be shorter than connectTimeout [parse]");
  }
}
