package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.Main;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code docs/cli.md}'s command table and its table of the options every client command takes
 * agree with picocli's command tree, both ways: a command, argument or option added to the code
 * and not to the page fails here, and so does one the page still names after it went.
 */
class CliDocTest {

  private static final Pattern COMMAND_ROW = Pattern.compile("^\\| `([a-z-]+)` \\|([^|]*)\\|([^|]*)\\|");
  private static final Pattern CLIENT_OPTION_ROW = Pattern.compile("^\\| `(--[a-z-]+)[^|]*` \\| [^|]* \\| [^|]* \\|$");
  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  private static String doc() throws IOException {
    return Files.readString(Path.of("..", "docs", "cli.md"));
  }

  private static String section(String doc, String heading) {
    int start = doc.indexOf("\n## " + heading + "\n");
    assertThat(start).as("docs/cli.md has a section '## " + heading + "'").isNotNegative();
    int end = doc.indexOf("\n## ", start + 1);
    return doc.substring(start, end < 0 ? doc.length() : end);
  }

  private static List<String> codes(String cell) {
    List<String> codes = new ArrayList<>();
    Matcher m = CODE.matcher(cell);
    while (m.find()) {
      codes.add(m.group(1));
    }
    return codes;
  }

  /** The options the client mixin gives every command that talks to a server, by their longest name. */
  private static Set<String> clientOptions() {
    Set<String> names = new TreeSet<>();
    CommandLine.Model.CommandSpec.forAnnotatedObject(new ClientOptions()).options()
        .forEach(o -> names.add(o.longestName()));
    return names;
  }

  /** "CLUSTER [ADDRESS:PORT]" and "--reason --wait" of one command, as the table writes them. */
  private static String row(CommandSpec spec, Set<String> clientOptions) {
    List<String> arguments = new ArrayList<>();
    for (PositionalParamSpec p : spec.positionalParameters()) {
      arguments.add(p.arity().min() == 0 ? "[" + p.paramLabel() + "]" : p.paramLabel());
    }
    List<String> options = new ArrayList<>();
    for (OptionSpec o : spec.options()) {
      if (!o.usageHelp() && !o.versionHelp() && !clientOptions.contains(o.longestName())) {
        options.add(o.longestName());
      }
    }
    boolean client = spec.options().stream().anyMatch(o -> o.longestName().equals("--server"));
    return String.join(" ", arguments) + " | " + String.join(" ", options) + (client ? " +client" : "");
  }

  @Test
  void everyCommandItsArgumentsAndItsOptionsAreInTheTableAndEveryRowIsACommand() throws IOException {
    Set<String> clientOptions = clientOptions();
    Map<String, String> code = new TreeMap<>();
    Main.commandLine().getSubcommands().forEach((name, sub) -> code.put(name, row(sub.getCommandSpec(), clientOptions)));

    Map<String, String> documented = new TreeMap<>();
    for (String line : section(doc(), "Every command and option").lines().toList()) {
      Matcher m = COMMAND_ROW.matcher(line);
      if (m.find()) {
        List<String> options = codes(m.group(3));
        boolean client = options.remove("client options");
        documented.put(m.group(1), String.join(" ", codes(m.group(2))) + " | " + String.join(" ", options)
            + (client ? " +client" : ""));
      }
    }

    assertThat(code).containsKeys("drain", "shed", "serve", "help").hasSizeGreaterThan(20);
    assertThat(documented).as("docs/cli.md, '## Every command and option'").containsExactlyEntriesOf(code);
  }

  @Test
  void theOptionsEveryClientCommandTakesAreTheMixinsBothWays() throws IOException {
    Set<String> documented = new TreeSet<>();
    for (String line : section(doc(), "Options every client command takes").lines().toList()) {
      Matcher m = CLIENT_OPTION_ROW.matcher(line.replace("`-o`, ", "").replace("\\|", "/"));
      if (m.find() && !m.group(1).equals("--help")) {
        documented.add(m.group(1));
      }
    }
    assertThat(documented).containsExactlyElementsOf(clientOptions());
  }

  @Test
  void everyCommandHasASectionOfItsOwn() throws IOException {
    String doc = doc();
    List<String> missing = new ArrayList<>();
    for (String name : Main.commandLine().getSubcommands().keySet()) {
      if (!name.equals("help") && !Pattern.compile("(?m)^### .*`" + Pattern.quote(name) + "[ `]").matcher(doc).find()) {
        missing.add(name);
      }
    }
    assertThat(missing).as("commands without a '### `command ...`' heading in docs/cli.md").isEmpty();
  }
}
