package io.signalbox.controlplane.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code signalbox completion}: bash completion, {@code source <(java -jar signalbox.jar completion)}. */
@Command(name = "completion", mixinStandardHelpOptions = true,
    description = "Print a bash completion script: source <(signalbox completion)")
public final class CompletionCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getOut().print(AutoComplete.bash(spec.root().name(), spec.root().commandLine()));
    spec.commandLine().getOut().flush();
    return 0;
  }
}
