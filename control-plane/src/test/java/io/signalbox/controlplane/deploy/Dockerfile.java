package io.signalbox.controlplane.deploy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code deploy/Dockerfile} read the way BuildKit reads it, as far as the tests need: comments and
 * line continuations, stages ({@code FROM base AS name}), and each stage's instructions, with what
 * a stage inherits from the stage it is built {@code FROM}.
 */
record Dockerfile(Map<String, Stage> stages) {

  static final Path PATH = Path.of("..", "deploy", "Dockerfile");

  record Instruction(String keyword, String arguments) {
    /** The arguments of an exec-form instruction ({@code ["java", "-jar", ...]}). */
    List<String> execForm() {
      try {
        return new ObjectMapper().readValue(arguments, new TypeReference<List<String>>() {});
      } catch (IOException e) {
        throw new AssertionError(keyword + " is not in exec form (a JSON array): " + arguments, e);
      }
    }
  }

  /** @param base the image or earlier stage it is built {@code FROM} */
  record Stage(String name, String base, List<Instruction> instructions) {
    List<Instruction> all(String keyword) {
      return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
    }
  }

  static Dockerfile read() {
    try {
      return parse(Files.readString(PATH));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + PATH, e);
    }
  }

  static Dockerfile parse(String text) {
    Map<String, Stage> stages = new LinkedHashMap<>();
    List<String> logical = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      String stripped = line.strip();
      if (stripped.startsWith("#") || (stripped.isEmpty() && current.isEmpty())) {
        continue;
      }
      if (stripped.endsWith("\\")) {
        current.append(stripped, 0, stripped.length() - 1).append(' ');
        continue;
      }
      current.append(stripped);
      logical.add(current.toString().strip());
      current.setLength(0);
    }
    Stage stage = null;
    for (String line : logical) {
      if (line.isEmpty()) {
        continue;
      }
      String[] parts = line.split("\\s+", 2);
      Instruction instruction = new Instruction(parts[0].toUpperCase(Locale.ROOT), parts.length > 1 ? parts[1] : "");
      if (instruction.keyword().equals("FROM")) {
        String[] from = instruction.arguments().split("\\s+");
        String name = from.length == 3 && from[1].equalsIgnoreCase("AS") ? from[2] : "stage-" + stages.size();
        stage = new Stage(name, from[0], new ArrayList<>());
        stages.put(name, stage);
      } else if (stage != null) {
        stage.instructions().add(instruction);
      }
    }
    return new Dockerfile(stages);
  }

  Stage stage(String name) {
    Stage stage = stages.get(name);
    if (stage == null) {
      throw new AssertionError(PATH + " has no stage " + name + "; it has " + stages.keySet());
    }
    return stage;
  }

  /** The last {@code keyword} instruction in effect for {@code stage}, inherited from its base stages. */
  Optional<Instruction> effective(String stageName, String keyword) {
    for (Stage stage = stages.get(stageName); stage != null; stage = stages.get(stage.base())) {
      List<Instruction> found = stage.all(keyword);
      if (!found.isEmpty()) {
        return Optional.of(found.get(found.size() - 1));
      }
    }
    return Optional.empty();
  }

  /** Every instruction of {@code stage} and of the stages it is built from, base first. */
  List<Instruction> lineage(String stageName) {
    List<Stage> chain = new ArrayList<>();
    for (Stage stage = stages.get(stageName); stage != null; stage = stages.get(stage.base())) {
      chain.add(0, stage);
    }
    return chain.stream().flatMap(s -> s.instructions().stream()).toList();
  }
}
