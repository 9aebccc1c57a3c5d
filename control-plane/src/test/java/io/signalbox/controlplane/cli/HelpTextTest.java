package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's help renders as the operator reads it: no {@code [picocli WARN]} line before the
 * usage (a bare {@code %} in a description made {@code shed --help} print three), no unresolved
 * {@code ${...}} variable.
 */
class HelpTextTest {

  /** What picocli's tracer said while {@code render} ran, and what {@code render} returned. */
  private record Rendered(String help, String traced) {}

  /** picocli's tracer warns on the {@code System.err} of the moment it warns (it re-reads it each time). */
  private static Rendered traced(Supplier<String> render) {
    PrintStream before = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      return new Rendered(render.get(), captured.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(before);
    }
  }

  private static void collect(String path, CommandLine command, Map<String, CommandLine> into) {
    into.put(path, command);
    command.getSubcommands().forEach((name, sub) -> collect(path + " " + name, sub, into));
  }

  @Test
  void everyCommandsHelpRendersWithoutAWarning() {
    Map<String, String> helps = new TreeMap<>();
    // Built inside too: picocli formats some descriptions as it builds the command tree.
    Rendered rendered = traced(() -> {
      Map<String, CommandLine> commands = new TreeMap<>();
      collect("signalbox", Main.commandLine(), commands);
      commands.forEach((path, command) -> helps.put(path, command.getUsageMessage(CommandLine.Help.Ansi.OFF)));
      return "";
    });
    List<String> problems = new ArrayList<>();
    helps.forEach((path, help) -> {
      if (help.contains("${")) {
        problems.add(path + ": an unresolved variable in " + help);
      }
      if (!help.contains("Usage: " + path)) {
        problems.add(path + ": no usage line in " + help);
      }
    });
    assertThat(helps).containsKeys("signalbox", "signalbox shed", "signalbox drain", "signalbox demo");
    assertThat(rendered.traced()).as("what picocli warned of while rendering every help").isEmpty();
    assertThat(problems).isEmpty();
  }

  @CommandLine.Command(name = "broken")
  static final class Broken {
    @CommandLine.Option(names = "--force", description = "drop 100% of the calls")
    boolean force;
  }

  @Test
  void aBarePercentInADescriptionIsCaught() {
    // The check above must be able to fail: the mistake it exists for, made on purpose.
    Rendered rendered = traced(() -> new CommandLine(new Broken()).getUsageMessage(CommandLine.Help.Ansi.OFF));

    assertThat(rendered.traced()).contains("[picocli WARN] Could not format 'drop 100% of the calls'");
  }

  @Test
  void shedsForceSaysOneHundredPercent() {
    Cli.Run run = Cli.run("shed", "--help");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).contains("--force           Mean it when dropping 100% of the calls.");
  }
}
