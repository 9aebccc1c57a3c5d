package io.signalbox.controlplane.cli;

import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.Violation;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code serve} refuses a config file for, without starting anything: the strict parse, then
 * the startup validation. Stands in for {@code signalbox validate --config FILE} (DESIGN "Offline
 * validation") until that command exists; then this should run it instead.
 */
public final class OfflineValidation {

  private OfflineValidation() {}

  /** Every problem {@code serve --config file} would refuse to start with; empty when it is valid. */
  public static List<Violation> problems(Path file) {
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(file);
    if (parsed instanceof Parsed.Invalid<SignalboxConfig> invalid) {
      return invalid.violations();
    }
    return ServeCommand.validateAtStartup(((Parsed.Ok<SignalboxConfig>) parsed).value());
  }
}
