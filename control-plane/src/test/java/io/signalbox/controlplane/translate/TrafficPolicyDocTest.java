package io.signalbox.controlplane.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.HashPolicySpec;
import io.signalbox.model.Inline;
import io.signalbox.model.RetryPolicySpec;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/traffic-policy.md}'s support matrix is held to the model and to its evidence: one row
 * per traffic-policy field (derived from the records, so a new field without a row fails here, and
 * so does a row for a field that is gone), every grpc-xds cell one of applied / ignored / rejected,
 * and every test it cites exists and is a test.
 */
class TrafficPolicyDocTest {

  /** {@code | `field` (qualifier) | envoy | grpc-xds | evidence |}; the field cell is the row's key. */
  private static final Pattern ROW = Pattern.compile("^\\| (`[^`]+`[^|]*)\\| ([^|]+) \\| ([^|]+) \\| (.+) \\|$");
  private static final Pattern TEST = Pattern.compile("`(\\w+)#(\\w+)`");
  private static final Set<String> VERDICTS = Set.of("applied", "ignored", "rejected");
  private static final List<String> TEST_PACKAGES = List.of(
      "io.signalbox.controlplane.e2e", "io.signalbox.controlplane.translate", "io.signalbox.validation");

  /**
   * The settings of {@link ClusterSpec} that predate the traffic policy; every other one, including
   * any added later, is a traffic-policy field and needs its row.
   */
  private static final Set<String> BEFORE_THE_POLICY = Set.of("name", "lbPolicy", "connectTimeout", "slowStart",
      "maxEjectionPercent", "outlierDetection", "circuitBreakers", "healthCheck", "ringHash", "leastRequest",
      "drainTimeout", "minEligible", "massRemovalPercent");

  private record Row(String field, String envoy, String grpc, String evidence) {}

  private static Map<String, Row> matrix() throws IOException {
    Map<String, Row> rows = new LinkedHashMap<>();
    boolean inMatrix = false;
    for (String line : Files.readAllLines(Path.of("..", "docs", "traffic-policy.md"))) {
      if (line.startsWith("## ")) {
        inMatrix = line.equals("## Support matrix");
        continue;
      }
      Matcher m = ROW.matcher(line);
      if (inMatrix && m.matches()) {
        String field = m.group(1).replace("`", "").trim();
        Row previous = rows.put(field, new Row(field, m.group(2).trim(), m.group(3).trim(), m.group(4)));
        assertThat(previous).as("one row for %s", field).isNull();
      }
    }
    return rows;
  }

  /** Every traffic-policy field of the model, spelled as the matrix spells it. */
  private static Set<String> modelFields() {
    Set<String> fields = new TreeSet<>();
    leaves("routes[].hashPolicy[]", HashPolicySpec.class, fields);
    leaves("routes[].retryPolicy", RetryPolicySpec.class, fields);
    for (RecordComponent c : settings(ClusterSpec.class)) {
      if (!BEFORE_THE_POLICY.contains(c.getName())) {
        leaves("clusters[]." + c.getName(), c.getType(), fields);
      }
    }
    // Fields older than the traffic policy that it builds on.
    fields.addAll(List.of("clusters[].lbPolicy: RING_HASH", "clusters[].lbPolicy: MAGLEV",
        "clusters[].lbPolicy: WEIGHTED_ROUND_ROBIN", "clusters[].ringHash.minimumRingSize",
        "clusters[].ringHash.maximumRingSize", "endpoints: priority", "endpoints: priority, zone shared across priorities"));
    // retryOn is two rows, one per vocabulary.
    fields.remove("routes[].retryPolicy.retryOn");
    fields.add("routes[].retryPolicy.retryOn (gRPC status names)");
    fields.add("routes[].retryPolicy.retryOn (HTTP conditions)");
    return fields;
  }

  /** A record's settings as the file names them: an {@link Inline} group's stand in for the group. */
  private static List<RecordComponent> settings(Class<?> record) {
    List<RecordComponent> settings = new ArrayList<>();
    for (RecordComponent c : record.getRecordComponents()) {
      if (c.isAnnotationPresent(Inline.class)) {
        settings.addAll(settings(c.getType()));
      } else {
        settings.add(c);
      }
    }
    return settings;
  }

  private static void leaves(String path, Class<?> type, Set<String> out) {
    if (type.isRecord()) {
      for (RecordComponent c : type.getRecordComponents()) {
        leaves(path + "." + c.getName(), c.getType(), out);
      }
    } else if (type.isEnum()) {
      for (Object value : type.getEnumConstants()) {
        out.add(path + ": " + value);
      }
    } else {
      out.add(path);
    }
  }

  @Test
  void everyTrafficPolicyFieldHasExactlyOneRowAndNoRowOutlivesItsField() throws IOException {
    Set<String> documented = new TreeSet<>(matrix().keySet());
    assertThat(documented).as("rows of the support matrix in docs/traffic-policy.md")
        .containsExactlyElementsOf(modelFields());
  }

  @Test
  void everyGrpcCellIsAVerdictBackedByATestThatExists() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Row row : matrix().values()) {
      String verdict = row.grpc().split(" ")[0];
      if (!VERDICTS.contains(verdict)) {
        problems.add(row.field() + ": grpc-xds cell '" + row.grpc() + "' is not applied, ignored or rejected");
      }
      if (!VERDICTS.contains(row.envoy().split(" ")[0])) {
        problems.add(row.field() + ": Envoy cell '" + row.envoy() + "' is not applied, ignored or rejected");
      }
      Matcher test = TEST.matcher(row.evidence());
      if (!test.find()) {
        problems.add(row.field() + ": no test named in '" + row.evidence() + "'");
        continue;
      }
      do {
        if (!isTest(test.group(1), test.group(2))) {
          problems.add(row.field() + ": " + test.group(1) + "#" + test.group(2) + " is not a test");
        }
      } while (test.find());
    }
    assertThat(problems).isEmpty();
  }

  private static boolean isTest(String className, String methodName) {
    for (String pkg : TEST_PACKAGES) {
      try {
        Class<?> type = Class.forName(pkg + "." + className);
        for (Method m : type.getDeclaredMethods()) {
          if (m.getName().equals(methodName) && m.isAnnotationPresent(Test.class)) {
            return true;
          }
        }
      } catch (ClassNotFoundException notHere) {
        // try the next package
      }
    }
    return false;
  }
}
