package io.signalbox.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.Inline;
import io.signalbox.model.RouteSpec;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} is held to the records {@link ConfigLoader} binds, both ways, as
 * {@code ApiDocTest} holds {@code api.md} to the routes: a key added to a settings record without a
 * row fails here, and so does a row for a key that is gone or misspelt (the loader would refuse it,
 * so a reader copying it gets an "unknown key" error).
 *
 * <p>The doc has two conventions, and each is checked as written. Settings ({@code xds},
 * {@code admin}, ...) have one row per leaf, dotted ({@code xds.limits.maxRequestBytes}); the leaves
 * are {@link RestartOnly#keys()}, the same walk that decides what a reload reports, so the two
 * cannot disagree about what a key is. The desired state (listeners, route configs, clusters) is
 * shown by a YAML example plus rows for the traffic-policy fields ({@code routes[].retryPolicy.backoff},
 * {@code clusters[].maglev.tableSize}); there every field of those records must be named by a row,
 * by the shape a row spells ({@code `{base, max}`}) or by a key of the example. That side matches
 * field names, not whole paths (a {@code name} anywhere documents every {@code name}): the example
 * is YAML, not a list of paths, and a per-path table of every cluster field would repeat it.
 */
class ConfigurationDocTest {

  private static final Path DOC = Path.of("..", "docs", "configuration.md");
  /** A row of a {@code | key | default | meaning |} table; its first cell names one or more keys. */
  private static final Pattern KEY_CELL = Pattern.compile("`([^`]+)`");
  private static final Pattern SHAPE_FIELD = Pattern.compile("\\b([a-zA-Z][A-Za-z0-9]*)\\b");
  private static final Pattern YAML_KEY = Pattern.compile("([A-Za-z][A-Za-z0-9]*):");
  /** Row prefixes of the desired state, and the record each element is. */
  private static final Map<String, Class<?>> ELEMENTS = Map.of("routes[]", RouteSpec.class, "clusters[]",
      ClusterSpec.class);

  @Test
  void everySettingHasARowAndEveryRowIsASetting() throws IOException {
    Set<String> rows = new TreeSet<>(rowKeys());
    rows.removeIf(k -> ELEMENTS.keySet().stream().anyMatch(k::startsWith));
    // No allow-list: a list of records (admin.tokens, xds.clientKinds, rollout.waves) is a leaf of
    // the walk, and its one row spells its elements' shape.
    Set<String> settings = new TreeSet<>(RestartOnly.keys());

    Set<String> missing = new TreeSet<>(settings);
    missing.removeAll(rows);
    Set<String> extra = new TreeSet<>(rows);
    extra.removeAll(settings);
    // One list, so that a renamed key shows both its missing and its stale row in one run.
    List<String> drift = new ArrayList<>();
    missing.forEach(k -> drift.add("no row for " + k));
    extra.forEach(k -> drift.add("a row for " + k + ", which the loader does not accept"));
    assertThat(drift).as("docs/configuration.md against the settings records").isEmpty();
  }

  @Test
  void everyDesiredStateRowNamesAFieldTheLoaderAccepts() throws IOException {
    Set<String> unknown = new TreeSet<>();
    for (String key : rowKeys()) {
      ELEMENTS.forEach((prefix, type) -> {
        if (key.startsWith(prefix + ".") && !resolves(type, key.substring(prefix.length() + 1))) {
          unknown.add(key);
        }
      });
    }
    assertThat(unknown).as("rows in docs/configuration.md naming no field of the desired-state records")
        .isEmpty();
  }

  @Test
  void everyDesiredStateFieldIsInARowOrTheExample() throws IOException {
    Set<String> named = new HashSet<>(exampleKeys());
    for (String key : rowKeys()) {
      for (String segment : key.split("\\.")) {
        named.add(segment.replace("[]", ""));
      }
    }
    named.addAll(shapeFields());
    Set<String> missing = new TreeSet<>();
    for (RecordComponent top : ConfigLoader.Document.class.getRecordComponents()) {
      if (RestartOnly.APPLIED_ON_RELOAD.contains(top.getName())) {
        fields(top.getName(), top.getGenericType(), named, missing, new HashSet<>());
      }
    }
    assertThat(missing).as("desired-state fields named neither by a row nor by the example in "
        + "docs/configuration.md").isEmpty();
  }

  /** Every key named in the first cell of a {@code | key | ...} table, a value after it dropped. */
  private static List<String> rowKeys() throws IOException {
    List<String> keys = new ArrayList<>();
    for (String line : keyTableRows()) {
      Matcher m = KEY_CELL.matcher(line.split("\\|")[1]);
      while (m.find()) {
        // `clusters[].lbPolicy: WEIGHTED_ROUND_ROBIN` documents one value of a key.
        keys.add(m.group(1).replaceFirst(":.*", "").trim());
      }
    }
    return keys;
  }

  /**
   * The body rows of every {@code | key | default | meaning |} table. Other tables (what applies on
   * reload, what exits at start) name sections and faults in their first column, not keys.
   */
  private static List<String> keyTableRows() throws IOException {
    List<String> rows = new ArrayList<>();
    boolean inKeyTable = false;
    for (String line : Files.readAllLines(DOC)) {
      if (!line.startsWith("|")) {
        inKeyTable = false;
        continue;
      }
      String first = line.split("\\|")[1].trim();
      if (first.equals("key")) {
        inKeyTable = true;
      } else if (inKeyTable && !first.startsWith("---")) {
        rows.add(line);
      }
    }
    return rows;
  }

  /**
   * The fields a row spells out as its value's shape, {@code `{budgetPercent: 20, minRetryConcurrency: 3}`}
   * or {@code `{base, max}`}: such a row documents a record's fields without a row each.
   */
  private static Set<String> shapeFields() throws IOException {
    Set<String> fields = new HashSet<>();
    for (String line : keyTableRows()) {
      Matcher span = KEY_CELL.matcher(line);
      while (span.find()) {
        if (span.group(1).startsWith("{") || span.group(1).startsWith("[{")) {
          Matcher word = SHAPE_FIELD.matcher(span.group(1));
          while (word.find()) {
            fields.add(word.group(1));
          }
        }
      }
    }
    return fields;
  }

  /** The keys of the YAML example under "Listeners, routes, clusters". */
  private static Set<String> exampleKeys() throws IOException {
    String doc = Files.readString(DOC);
    int section = doc.indexOf("## Listeners, routes, clusters");
    int start = doc.indexOf("```yaml", section);
    String example = doc.substring(start, doc.indexOf("```", start + 7)).replaceAll("#.*", "");
    Set<String> keys = new HashSet<>();
    Matcher m = YAML_KEY.matcher(example);
    while (m.find()) {
      keys.add(m.group(1));
    }
    return keys;
  }

  private static boolean resolves(Class<?> type, String path) {
    Type current = type;
    for (String segment : path.split("\\.")) {
      Class<?> record = elementClass(current);
      if (!record.isRecord()) {
        return false;
      }
      String name = segment.replace("[]", "");
      current = null;
      for (RecordComponent c : keys(record)) {
        if (c.getName().equals(name)) {
          current = c.getGenericType();
        }
      }
      if (current == null) {
        return false;
      }
    }
    return true;
  }

  private static void fields(String path, Type type, Set<String> named, Set<String> missing, Set<Class<?>> seen) {
    Class<?> record = elementClass(type);
    if (!record.isRecord() || !seen.add(record)) {
      return;
    }
    for (RecordComponent c : keys(record)) {
      String key = path + (type instanceof ParameterizedType ? "[]." : ".") + c.getName();
      if (!named.contains(c.getName())) {
        missing.add(key);
      }
      fields(key, c.getGenericType(), named, missing, seen);
    }
  }

  /**
   * The components a record is written with: an {@link Inline} group's components stand in for the
   * group (the file spells {@code clusters[].drainTimeout}, never {@code clusters[].guards}).
   */
  private static List<RecordComponent> keys(Class<?> record) {
    List<RecordComponent> keys = new ArrayList<>();
    for (RecordComponent c : record.getRecordComponents()) {
      if (c.isAnnotationPresent(Inline.class)) {
        keys.addAll(keys(c.getType()));
      } else {
        keys.add(c);
      }
    }
    return keys;
  }

  /** The class a YAML value of this type binds: a list's element, or the type itself. */
  private static Class<?> elementClass(Type type) {
    Type t = type;
    if (t instanceof ParameterizedType p && p.getRawType() == List.class) {
      t = p.getActualTypeArguments()[0];
    }
    return t instanceof Class<?> c ? c : Object.class;
  }
}
