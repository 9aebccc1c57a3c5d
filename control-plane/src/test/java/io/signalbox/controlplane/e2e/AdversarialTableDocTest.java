package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code docs/reliability.md}'s table of bad inputs and the adversarial suite agree, both ways:
 * every table of cases (a {@code @MethodSource}) and every single case ({@code @Test}) of the
 * {@code Bad*IT} classes has a row with its true count, every row names one, and the total is their sum.
 * The tables are built without a server (the generated ones by jqwik with their fixed seeds).
 */
class AdversarialTableDocTest {

  static final List<Class<?>> SUITE = List.of(BadEndpointFilesIT.class, BadConfigFilesIT.class,
      BadAdminRequestsIT.class, BadXdsRequestsIT.class, BadCliArgumentsIT.class);

  private static final Pattern ROW = Pattern.compile("^\\|[^|]*\\|\\s*`(Bad\\w+IT)\\.(\\w+)`\\s*\\|[^|]*\\|\\s*(\\d+)\\s*\\|$");
  private static final Pattern TOTAL = Pattern.compile("^\\|\\s*\\*\\*total\\*\\*.*\\|\\s*\\*\\*(\\d+)\\*\\*\\s*\\|$");

  @Test
  void theDocumentedCountsAreTheSuitesCounts() throws Exception {
    Map<String, Integer> documented = new TreeMap<>();
    Integer total = null;
    for (String line : Files.readAllLines(Path.of("..", "docs", "reliability.md"))) {
      Matcher row = ROW.matcher(line.strip());
      if (row.matches()) {
        documented.put(row.group(1) + "." + row.group(2), Integer.parseInt(row.group(3)));
      }
      Matcher sum = TOTAL.matcher(line.strip());
      if (sum.matches()) {
        total = Integer.parseInt(sum.group(1));
      }
    }

    Map<String, Integer> actual = suiteCounts();

    assertThat(documented).as("docs/reliability.md, section 'Bad input'").isEqualTo(actual);
    int sum = actual.values().stream().mapToInt(Integer::intValue).sum();
    assertThat(total).as("the documented total").isEqualTo(sum);
    assertThat(sum).as("issue 29 asks for at least 300 malformed inputs").isGreaterThanOrEqualTo(300);
  }

  /** Each table of the suite (class.method) with its number of cases; a single {@code @Test} counts one. */
  static Map<String, Integer> suiteCounts() throws Exception {
    Map<String, Integer> counts = new TreeMap<>();
    for (Class<?> c : SUITE) {
      for (Method m : c.getDeclaredMethods()) {
        if (m.isAnnotationPresent(ParameterizedTest.class)) {
          for (String source : m.getAnnotation(MethodSource.class).value()) {
            Method table = c.getDeclaredMethod(source);
            table.setAccessible(true);
            counts.put(c.getSimpleName() + "." + source, ((Collection<?>) table.invoke(null)).size());
          }
        } else if (m.isAnnotationPresent(Test.class)) {
          counts.put(c.getSimpleName() + "." + m.getName(), 1);
        }
      }
    }
    return counts;
  }
}
