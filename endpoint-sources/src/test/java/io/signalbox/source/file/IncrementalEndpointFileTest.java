package io.signalbox.source.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The incremental read against a fresh whole read ({@link EndpointFile#parse}), by example; {@code
 * IncrementalEndpointFilePropertiesTest} does the same for generated files and edits.
 */
class IncrementalEndpointFileTest {

  private static final String NAME = "/etc/signalbox/endpoints.yaml";

  private final IncrementalEndpointFile reader = new IncrementalEndpointFile(NAME);

  /** {@code clusters} clusters of two endpoints; cluster {@code changed} has weight {@code weight}. */
  private static String file(int clusters, int changed, int weight) {
    StringBuilder out = new StringBuilder("# generated\nclusters:\n");
    for (int i = 0; i < clusters; i++) {
      out.append("  c-").append(i).append(":\n");
      out.append("    - { address: 10.0.0.1, port: ").append(8000 + i).append(", zone: a, weight: ")
          .append(i == changed ? weight : 1).append(" }\n");
      out.append("    - { address: 10.0.0.2, port: ").append(8000 + i).append(", zone: b }\n");
    }
    return out.toString();
  }

  private static Map<String, List<EndpointSpec>> ok(Parsed<Map<String, List<EndpointSpec>>> parsed) {
    assertThat(parsed).isInstanceOf(Parsed.Ok.class);
    return ((Parsed.Ok<Map<String, List<EndpointSpec>>>) parsed).value();
  }

  private Map<String, List<EndpointSpec>> readAsAWholeReadDoes(String text) {
    Parsed<Map<String, List<EndpointSpec>>> whole = EndpointFile.parse(text, NAME);
    Parsed<Map<String, List<EndpointSpec>>> read = reader.read(text);
    assertThat(read).isEqualTo(whole);
    return ok(read);
  }

  @Test
  void rereadsOnlyTheBlockOfTheChangedClusterAndKeepsEveryOtherListInstance() {
    Map<String, List<EndpointSpec>> before = readAsAWholeReadDoes(file(1_000, -1, 0));
    assertThat(reader.lastRead()).isEqualTo(new IncrementalEndpointFile.LastRead(true, 1_000, 0));

    Map<String, List<EndpointSpec>> after = readAsAWholeReadDoes(file(1_000, 567, 7));

    assertThat(reader.lastRead()).isEqualTo(new IncrementalEndpointFile.LastRead(false, 1_000, 1));
    assertThat(new ArrayList<>(after.keySet())).isEqualTo(new ArrayList<>(before.keySet()));
    after.forEach((cluster, endpoints) -> {
      if (cluster.equals("c-567")) {
        assertThat(endpoints.get(0).weight()).isEqualTo(7);
      } else {
        assertThat(endpoints).isSameAs(before.get(cluster));
      }
    });
  }

  @Test
  void reportsAnInvalidEditExactlyAsAWholeReadWithTheFilesOwnLines() {
    readAsAWholeReadDoes(file(100, -1, 0));
    String invalid = file(100, -1, 0).replace("port: 8042, zone: b", "prot: 8042, zone: b");

    Parsed<Map<String, List<EndpointSpec>>> read = reader.read(invalid);

    assertThat(read).isEqualTo(EndpointFile.parse(invalid, NAME));
    assertThat(read.violations().stream().map(Violation::toString))
        .containsExactly(NAME + ": line 131, column 28: clusters.c-42[1].prot: unknown key 'prot' (did you mean 'port'?) [parse]");
  }

  @Test
  void reportsASyntaxErrorExactlyAsAWholeRead() {
    readAsAWholeReadDoes(file(100, -1, 0));
    // Unclosed: on its own the block ends inside the flow mapping, in the file the next key follows.
    String invalid = file(100, -1, 0).replace("port: 8042, zone: b }", "port: 8042, zone: b");

    Parsed<Map<String, List<EndpointSpec>>> read = reader.read(invalid);

    assertThat(read).isEqualTo(EndpointFile.parse(invalid, NAME));
    // Found in the next cluster's key line, which a read of the changed block alone never sees.
    assertThat(read.violations().stream().map(Violation::toString))
        .containsExactly(NAME + ": line 132, column 7: YAML syntax error: expected ',' or '}', but got : "
            + "(while parsing a flow mapping) [parse]");
  }

  @Test
  void readsTheNextCleanEditByBlocksAfterAnInvalidOne() {
    Map<String, List<EndpointSpec>> before = readAsAWholeReadDoes(file(100, -1, 0));
    reader.read(file(100, -1, 0).replace("zone: b", "zone: [b]"));

    Map<String, List<EndpointSpec>> after = readAsAWholeReadDoes(file(100, 3, 9));

    assertThat(reader.lastRead()).isEqualTo(new IncrementalEndpointFile.LastRead(false, 100, 1));
    assertThat(after.get("c-4")).isSameAs(before.get("c-4"));
  }

  @Test
  void reportsAClusterNamedTwiceAsTheDuplicateKeyItIs() {
    readAsAWholeReadDoes(file(10, -1, 0));
    String twice = file(10, -1, 0) + "  c-3:\n    - { address: 10.0.0.9, port: 1 }\n";

    Parsed<Map<String, List<EndpointSpec>>> read = reader.read(twice);

    assertThat(read).isEqualTo(EndpointFile.parse(twice, NAME));
    assertThat(read.violations().stream().map(Violation::toString))
        .containsExactly(NAME + ": line 33, column 3: duplicate key 'c-3' [parse]");
  }

  @Test
  void readsAnotherLayoutWholeAndStillKeepsEqualListsInstances() {
    Map<String, List<EndpointSpec>> before = readAsAWholeReadDoes(file(10, -1, 0));
    String flow = "clusters: { c-0: [ { address: 10.0.0.1, port: 8000, zone: a } ], "
        + "c-1: [ { address: 10.0.0.1, port: 8001, zone: a, weight: 1 }, { address: 10.0.0.2, port: 8001, zone: b } ] }\n";

    Map<String, List<EndpointSpec>> after = readAsAWholeReadDoes(flow);

    assertThat(reader.lastRead().whole()).isTrue();
    assertThat(after.get("c-1")).isSameAs(before.get("c-1"));
    assertThat(after.get("c-0")).isNotEqualTo(before.get("c-0"));
  }

  @Test
  void readsWholeWhenMostClustersChanged() {
    readAsAWholeReadDoes(file(10, -1, 0));

    readAsAWholeReadDoes(file(10, -1, 0).replace("zone: b", "zone: c"));

    assertThat(reader.lastRead()).isEqualTo(new IncrementalEndpointFile.LastRead(true, 10, 0));
  }

  @Test
  void readsAnEditedCommentOrBlankLineWithoutChangingAnyListInstance() {
    Map<String, List<EndpointSpec>> before = readAsAWholeReadDoes(file(10, -1, 0));

    Map<String, List<EndpointSpec>> after =
        readAsAWholeReadDoes(file(10, -1, 0).replace("  c-5:\n", "  c-5:\n    # moved to rack 4\n\n"));

    assertThat(reader.lastRead()).isEqualTo(new IncrementalEndpointFile.LastRead(false, 10, 1));
    before.forEach((cluster, endpoints) -> assertThat(after.get(cluster)).isSameAs(endpoints));
  }
}
