package io.signalbox.source.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import io.signalbox.yaml.Parsed;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The incremental read proven against a fresh whole read: for generated endpoint files in many
 * layouts, and a sequence of edits to each (a cluster rewritten, added, removed, duplicated, moved,
 * broken, the header or trailer changed), every read returns exactly what {@link EndpointFile#parse}
 * of that text returns — the same clusters in the same order, or the same violations with the same
 * lines — and a cluster whose endpoints did not change keeps its list instance.
 */
class IncrementalEndpointFilePropertiesTest {

  private static final String NAME = "e.yaml";

  @Property(tries = 1000, seed = "20261201")
  void everyReadIsWhatAWholeReadReturns(@ForAll("editedFiles") List<String> versions) {
    IncrementalEndpointFile reader = new IncrementalEndpointFile(NAME);
    Map<String, List<EndpointSpec>> lastClean = null;
    for (String text : versions) {
      Parsed<Map<String, List<EndpointSpec>>> whole = EndpointFile.parse(text, NAME);
      Parsed<Map<String, List<EndpointSpec>>> read = reader.read(text);

      assertThat(read).as("read of%n%s", text).isEqualTo(whole);
      Statistics.collect(read instanceof Parsed.Ok ? (reader.lastRead().whole() ? "ok, whole" : "ok, by blocks") : "invalid");
      if (read instanceof Parsed.Ok<Map<String, List<EndpointSpec>>> ok) {
        assertThat(new ArrayList<>(ok.value().keySet()))
            .isEqualTo(new ArrayList<>(((Parsed.Ok<Map<String, List<EndpointSpec>>>) whole).value().keySet()));
        if (lastClean != null) {
          Map<String, List<EndpointSpec>> before = lastClean;
          ok.value().forEach((cluster, endpoints) -> {
            if (endpoints.equals(before.get(cluster))) {
              assertThat(endpoints).as("cluster %s", cluster).isSameAs(before.get(cluster));
            }
          });
        }
        lastClean = ok.value();
      }
    }
  }

  @Provide
  Arbitrary<List<String>> editedFiles() {
    return Arbitraries.randomValue(random -> new Document(random).versions(1 + random.nextInt(8)));
  }

  /** A file as a header, per-cluster blocks of text and a trailer, edited block by block. */
  private static final class Document {
    private static final String[] NAMES = {"web", "api", "c-1", "c.2", "x/y", "svc_3", "0abc", "web"};
    private final Random random;
    private final int indent;
    private String header;
    private final List<String> blocks = new ArrayList<>();
    private String trailer;
    // While rendering a part chosen to be defective: only then is anything unusual or wrong written.
    private boolean defective;

    Document(Random random) {
      this.random = random;
      this.indent = pick(1, 2, 2, 2, 4);
      this.header = header();
      int clusters = 1 + random.nextInt(12);
      for (int i = 0; i < clusters; i++) {
        blocks.add(block());
      }
      this.trailer = trailer();
    }

    List<String> versions(int edits) {
      List<String> out = new ArrayList<>();
      out.add(render());
      for (int i = 0; i < edits; i++) {
        edit();
        out.add(render());
      }
      return out;
    }

    private String render() {
      StringBuilder out = new StringBuilder(header);
      blocks.forEach(out::append);
      out.append(trailer);
      return random.nextInt(10) == 0 && out.length() > 0 && out.charAt(out.length() - 1) == '\n'
          ? out.substring(0, out.length() - 1) : out.toString();
    }

    private void edit() {
      int at = blocks.isEmpty() ? 0 : random.nextInt(blocks.size());
      switch (random.nextInt(12)) {
        case 0, 1, 2, 3 -> {
          if (!blocks.isEmpty()) {
            blocks.set(at, block()); // the usual edit: one cluster rewritten
          }
        }
        case 4 -> blocks.add(at, block());
        case 5 -> {
          if (!blocks.isEmpty()) {
            blocks.remove(at);
          }
        }
        case 6 -> {
          if (!blocks.isEmpty()) {
            blocks.add(random.nextInt(blocks.size() + 1), blocks.get(at)); // the same cluster twice
          }
        }
        case 7 -> {
          if (blocks.size() > 1) {
            blocks.add(random.nextInt(blocks.size()), blocks.remove(at));
          }
        }
        case 8 -> header = header();
        case 9 -> trailer = trailer();
        default -> {
          if (!blocks.isEmpty()) {
            blocks.set(at, blocks.get(at).replaceFirst("port: (\\d+)", "port: 9$1")); // one value
          }
        }
      }
    }

    private String header() {
      chooseDefective(8);
      if (!rarely()) {
        return pick("clusters:\n", "# endpoints\n\nclusters:\n", "clusters:   \n", "clusters:\n  # first\n");
      }
      return pick("clusters: # all of them\n", "---\nclusters:\n", "  clusters:\n", "\tclusters:\n", "clusters: {}\n",
          "other: 1\nclusters:\n", "clusters:\r\n");
    }

    private String trailer() {
      chooseDefective(8);
      if (!rarely()) {
        return pick("", "\n", "# end\n", "   \n");
      }
      return pick("extra: 1\n", "---\n", "...\n", "clusters:\n");
    }

    /** Something unusual or wrong, only in a part chosen to be defective, so most edits are clean. */
    private boolean rarely() {
      return defective && random.nextInt(6) == 0;
    }

    /** One part in {@code odds} is defective: it may hold something unusual or wrong. */
    private void chooseDefective(int odds) {
      defective = random.nextInt(odds) == 0;
    }

    private String block() {
      chooseDefective(12);
      String pad = " ".repeat(indent);
      String name = rarely() ? "web" : NAMES[random.nextInt(NAMES.length)] + random.nextInt(1000);
      StringBuilder out = new StringBuilder(pad);
      out.append(!rarely() ? name + pick(":", ":", ":", ":   ") : switch (random.nextInt(6)) {
        case 0 -> "\"" + name + "\":";
        case 1 -> name + ": # note";
        case 2 -> name + ": [ { address: 10.0.0.1, port: 80 } ]";
        case 3 -> name + ": ~";
        case 4 -> "'" + name + "' :";
        default -> name + " :";
      }).append('\n');
      boolean compact = random.nextInt(4) == 0;
      String item = compact ? pad : pad + "  ";
      int entries = random.nextInt(4);
      for (int i = 0; i < entries; i++) {
        out.append(junk(pad));
        out.append(item).append(entry(item)).append('\n');
      }
      out.append(junk(pad));
      return out.toString();
    }

    private String entry(String item) {
      String address = pick("10.0.0.1", "10.0.0.2", "\"10.0.0.3\"", "host.example", "'10.0.0.4'");
      String port = rarely() ? pick("eighty", "[80]") : pick("80", "8080", "81", "\"82\"", "70000");
      List<String> fields = new ArrayList<>(List.of("address: " + address, "port: " + port));
      if (random.nextBoolean()) {
        fields.add("zone: " + (rarely() ? "[a]" : pick("a", "b", "''")));
      }
      if (random.nextInt(3) == 0) {
        fields.add("weight: " + (rarely() ? "heavy" : pick("1", "5", "0")));
      }
      if (random.nextInt(3) == 0) {
        fields.add("state: " + (rarely() ? "GONE" : pick("READY", "DRAINING", "ready")));
      }
      if (rarely()) {
        fields.add("prot: 1");
      }
      String body = !rarely() ? (random.nextInt(3) == 0 ? String.join("\n" + item + "  ", fields)
          : "{ " + String.join(", ", fields) + " }") : switch (random.nextInt(10)) {
        case 0 -> "{ " + String.join(", ", fields); // never closed
        case 1 -> "{ " + String.join(",\n" + item + "    ", fields) + " }"; // one mapping over lines
        // Over lines, its second line looking like a cluster's key line.
        case 2 -> "{ address: 10.0.0.1,\n" + item.substring(Math.min(2, item.length())) + "port:\n" + item + "   80 }";
        case 3 -> "*anchor";
        case 4 -> "&anchor { " + String.join(", ", fields) + " }";
        case 5 -> "";
        case 6 -> "{ address: \"10.0.0.1, port: 80 }"; // a quote never closed
        case 7 -> "{ address: 10.0.0.1, port: 80 } # trailing";
        default -> "{ " + String.join(",\n" + item + "  ", fields) + " }"; // continued at the item's own indent
      };
      return (rarely() ? "" : "- ") + body;
    }

    private String junk(String pad) {
      if (rarely()) {
        return pick("\t- { address: 10.0.0.9, port: 9 }\n",
            " ".repeat(Math.max(0, pad.length() - 1)) + "- { address: 10.0.0.9, port: 9 }\n");
      }
      return switch (random.nextInt(12)) {
        case 0 -> "\n";
        case 1 -> "# a comment\n";
        case 2 -> pad + "# a comment\n";
        case 3 -> pad + "    # deeper\n";
        case 4 -> "   \n";
        default -> "";
      };
    }

    @SafeVarargs
    private <T> T pick(T... choices) {
      return choices[random.nextInt(choices.length)];
    }
  }
}
