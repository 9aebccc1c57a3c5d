package io.signalbox.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class JvmSettingsTest {

  @Test
  void theReadmesRunCommandsStartTheJvmWithTheRecommendedOptions() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    Matcher run = Pattern.compile("java ((?:-\\S+ )*)-jar control-plane/target/signalbox\\.jar serve").matcher(readme);

    int commands = 0;
    while (run.find()) {
      commands++;
      List<String> options = List.of(run.group(1).trim().split("\\s+"));
      assertThat(options).as(run.group()).containsAll(JvmSettings.RECOMMENDED);
      // A pre-touched heap must not grow (JvmSettings.heapAdvice): the initial heap is the maximum.
      String xmx = options.stream().filter(o -> o.startsWith("-Xmx")).findFirst()
          .orElseThrow(() -> new AssertionError("no -Xmx in " + run.group()));
      assertThat(options).as(run.group()).contains("-Xms" + xmx.substring("-Xmx".length()));
    }
    assertThat(commands).as("plain java run commands in README.md").isGreaterThanOrEqualTo(1);
    // The first command of the quickstart is the launcher's, which carries the options itself.
    assertThat(readme).contains("control-plane/target/signalbox demo",
        "control-plane/target/signalbox serve --config examples/signalbox.yaml");
  }

  @Test
  void theLauncherStartsTheServerWithTheRecommendedOptionsAndAFixedHeap() throws IOException {
    String launcher = Files.readString(Path.of("src", "main", "launcher", "signalbox"));
    Matcher server = Pattern.compile("serve\\|demo\\)[\\s\\S]*?exec \"\\$java\" ([^\\n]*)").matcher(launcher);

    assertThat(server.find()).as(launcher).isTrue();
    List<String> options = List.of(server.group(1).trim().split("\\s+"));
    assertThat(options).containsAll(JvmSettings.RECOMMENDED).contains("-Xms\"$heap\"", "-Xmx\"$heap\"");
  }

  @Test
  void deployDocsNameTheRecommendedOptions() throws IOException {
    String deploy = Files.readString(Path.of("..", "docs", "deploy.md"));

    assertThat(deploy).contains("### JVM options");
    JvmSettings.RECOMMENDED.forEach(option -> assertThat(deploy).contains("`" + option + "`"));
    assertThat(JvmSettings.advice(List.of("-XX:+AlwaysPreTouch"), "parallel"))
        .hasValueSatisfying(line -> assertThat(line).contains("\"JVM options\""));
  }

  @Test
  void namesTheCollectorByItsBeans() {
    assertThat(JvmSettings.collector(List.of("PS Scavenge", "PS MarkSweep"))).isEqualTo("parallel");
    assertThat(JvmSettings.collector(List.of("G1 Young Generation", "G1 Old Generation", "G1 Concurrent GC")))
        .isEqualTo("G1");
    assertThat(JvmSettings.collector(List.of("Copy", "MarkSweepCompact"))).isEqualTo("serial");
    assertThat(JvmSettings.collector(List.of("ZGC Cycles", "ZGC Pauses"))).isEqualTo("ZGC");
    assertThat(JvmSettings.collector(List.of("Epsilon"))).isEqualTo("Epsilon");
    assertThat(JvmSettings.collector()).as("this JVM's").isIn("parallel", "G1", "serial", "ZGC", "Shenandoah");
  }

  @Test
  void findsWhichRecommendedSwitchesAreOff() {
    Map<String, String> flags = new HashMap<>(Map.of("UseParallelGC", "true", "AlwaysPreTouch", "false"));

    // UseTransparentHugePages unknown to this JVM (null), AlwaysPreTouch off.
    assertThat(JvmSettings.notInEffect(flags::get))
        .containsExactly("-XX:+UseTransparentHugePages", "-XX:+AlwaysPreTouch");
    flags.put("UseTransparentHugePages", "true");
    flags.put("AlwaysPreTouch", "true");
    assertThat(JvmSettings.notInEffect(flags::get)).isEmpty();
    assertThat(JvmSettings.notInEffect()).as("this JVM's").isSubsetOf(JvmSettings.RECOMMENDED);
  }

  @Test
  void advisesOnlyWhenSomethingRecommendedIsNotInEffect() {
    assertThat(JvmSettings.advice(List.of(), "parallel")).isEmpty();
    assertThat(JvmSettings.advice(List.of("-XX:+UseParallelGC", "-XX:+AlwaysPreTouch"), "G1"))
        .hasValueSatisfying(line -> assertThat(line)
            .startsWith("running with the G1 garbage collector and without -XX:+UseParallelGC -XX:+AlwaysPreTouch;")
            .contains(String.join(" ", JvmSettings.RECOMMENDED)));
  }

  @Test
  void advisesAFixedHeapOnlyWhenAPreTouchedHeapCanGrow() {
    long gib = 1L << 30;

    assertThat(JvmSettings.heapAdvice(true, gib, 4 * gib)).hasValueSatisfying(line -> assertThat(line)
        .startsWith("the heap starts at 1024 MB and may grow to 4096 MB:")
        .contains("-Xms equal to -Xmx", "\"JVM options\""));
    assertThat(JvmSettings.heapAdvice(true, 4 * gib, 4 * gib)).as("fixed heap").isEmpty();
    assertThat(JvmSettings.heapAdvice(false, gib, 4 * gib)).as("nothing pre-touched").isEmpty();
  }
}
