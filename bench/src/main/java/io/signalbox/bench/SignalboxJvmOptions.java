package io.signalbox.bench;

import io.signalbox.controlplane.JvmSettings;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --signalbox-jvm-opts}, shared by the tools that start Signalbox servers: added to their
 * JVM options, by default what Signalbox ships with ({@link JvmSettings#RECOMMENDED}).
 */
final class SignalboxJvmOptions {

  @Option(names = "--signalbox-jvm-opts", paramLabel = "<options>", description = "Added to a Signalbox server's JVM options; default: what "
      + "it ships with, ${DEFAULT-VALUE}")
  String line = String.join(" ", JvmSettings.RECOMMENDED);

  List<String> list() {
    return LoadTool.options(line);
  }
}
