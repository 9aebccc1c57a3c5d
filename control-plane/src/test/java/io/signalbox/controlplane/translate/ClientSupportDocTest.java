package io.signalbox.controlplane.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.validation.ClientKind;
import io.signalbox.validation.ClientSetting;
import io.signalbox.validation.ClientSupport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/traffic-policy.md}'s "Support by client" table is {@link ClientSupport}, the table the
 * warnings read: one row per {@link ClientSetting} in its order, one column per {@link ClientKind}
 * in its order, every cell exactly the code's. A fact changed in one place and not the other fails
 * here, and the failure prints the table the code implies.
 */
class ClientSupportDocTest {

  private static final String SECTION = "## Support by client";

  private static List<String> documented() throws IOException {
    List<String> rows = new ArrayList<>();
    boolean in = false;
    for (String line : Files.readAllLines(Path.of("..", "docs", "traffic-policy.md"))) {
      if (line.startsWith("## ")) {
        in = line.equals(SECTION);
        continue;
      }
      if (in && line.startsWith("|")) {
        rows.add(line);
      }
    }
    return rows;
  }

  private static List<String> fromCode() {
    List<String> rows = new ArrayList<>();
    rows.add("| setting | " + Stream.of(ClientKind.values()).map(ClientKind::label).collect(Collectors.joining(" | "))
        + " |");
    rows.add("|---" + "|---".repeat(ClientKind.values().length) + "|");
    for (ClientSetting setting : ClientSetting.values()) {
      rows.add("| " + setting.label() + " | " + Stream.of(ClientKind.values())
          .map(k -> ClientSupport.of(k, setting).text()).collect(Collectors.joining(" | ")) + " |");
    }
    return rows;
  }

  @Test
  void theSupportByClientTableIsTheOneTheWarningsRead() throws IOException {
    assertThat(documented())
        .as("the table under '%s' in docs/traffic-policy.md; the code implies:%n%s", SECTION,
            String.join(System.lineSeparator(), fromCode()))
        .containsExactlyElementsOf(fromCode());
  }

  @Test
  void everyClientKindHasACellForEverySetting() {
    for (ClientSetting setting : ClientSetting.values()) {
      for (ClientKind kind : ClientKind.values()) {
        assertThat(ClientSupport.of(kind, setting)).as("%s / %s", setting, kind).isNotNull();
      }
    }
  }
}
