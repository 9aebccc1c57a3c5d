package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.yaml.Parsed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code signalbox plan}: what applying a config (and its endpoint files) or endpoint files to the
 * running server would do, changing nothing ({@code POST /api/v1/plan}). Exit 0 no change, 2
 * invalid inputs, 4 valid with changes, 1 when the server cannot be asked: a CI job runs it before
 * it applies a ConfigMap.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
    description = "Say what a config (with its endpoint files) or endpoint files would do to the running server, "
        + "changing nothing: the verdict, the field-level diff against the served epoch, the guards that would hold "
        + "it, who would receive each changed resource, the client kinds that would refuse or ignore a setting, and "
        + "each changed cluster's capacity. Exit 0 no change, 2 invalid, 4 valid with changes.")
public final class PlanCommand implements Callable<Integer> {

  /** The config file a directory holds, as the Kubernetes ConfigMap and {@code signalbox demo} name it. */
  static final String CONFIG_IN_DIRECTORY = "signalbox.yaml";

  @Spec CommandSpec spec;

  @Mixin ClientOptions options;

  @Option(names = "--config", paramLabel = "FILE|DIR",
      description = "A config file with the endpoint files it names, or a directory holding " + CONFIG_IN_DIRECTORY
          + " and them (a ConfigMap as mounted).")
  Path config;

  @Option(names = "--endpoints", paramLabel = "FILE", arity = "1..*",
      description = "Endpoint files: without --config, each in place of the server's of the same path or name, "
          + "under the config the server has; with it, in place of the file the config names at that path.")
  List<Path> endpoints;

  @Override
  public Integer call() {
    if (config == null && (endpoints == null || endpoints.isEmpty())) {
      throw new ParameterException(spec.commandLine(), "plan needs --config FILE|DIR or --endpoints FILE...");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    Map<String, String> files = new TreeMap<>();
    if (config != null) {
      Path file = config.toAbsolutePath().normalize();
      file = Files.isDirectory(file) ? file.resolve(CONFIG_IN_DIRECTORY) : file;
      body.put("configFile", file.toString());
      body.put("config", read(file));
      // The files the config names, as the server resolves them; one it cannot parse is the server's
      // to report, with the rest of its problems.
      if (ConfigLoader.parse(file) instanceof Parsed.Ok<SignalboxConfig> ok) {
        for (Path named : ok.value().sources().files()) {
          Path path = named.toAbsolutePath().normalize();
          if (Files.isRegularFile(path)) {
            files.put(path.toString(), read(path));
          }
        }
      }
    }
    if (endpoints != null) {
      for (Path e : endpoints) {
        Path path = e.toAbsolutePath().normalize();
        files.put(path.toString(), read(path));
      }
    }
    body.put("endpointFiles", files);
    JsonNode plan = options.client().post("/api/v1/plan", body);
    int exit = plan.path("exitCode").asInt(CliFailure.FAILED);
    if (options.json()) {
      options.print(plan);
    } else {
      PlanText.print(plan, options.out(), options.err());
    }
    return exit;
  }

  private String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), "cannot read " + file + ": " + e.getMessage());
    }
  }
}
