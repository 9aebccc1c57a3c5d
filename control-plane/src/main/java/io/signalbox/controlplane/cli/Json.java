package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.function.Supplier;

/** Reading the server's JSON and printing it back, pretty. */
final class Json {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  /**
   * @param whenInvalid the failure line; when it supplies null, invalid JSON reads as null
   */
  static JsonNode read(String text, Supplier<String> whenInvalid) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      String line = whenInvalid.get();
      if (line == null) {
        return null;
      }
      throw CliFailure.failed(line);
    }
  }

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write " + value + " as JSON", e);
    }
  }

  static String pretty(JsonNode node) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot print " + node, e);
    }
  }

  /** The field as text; empty when it is missing or null. */
  static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? "" : value.asText();
  }
}
