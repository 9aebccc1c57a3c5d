package io.signalbox.yaml;

import java.util.List;
import java.util.Map;

/**
 * A YAML tree that remembers where every node and key started, so that a binding error can name
 * the line and column. Jackson's {@code JsonNode} drops locations, hence this small tree of our own.
 */
sealed interface YamlNode {
  int line();

  int column();

  /** What to call this node in "expected X, was Y" messages. */
  String describe();

  /**
   * A scalar as written (numbers and booleans keep their source text), with what YAML resolved it
   * to: {@code "50051"} is a string and {@code 50051} an integer, and the binder keeps them apart.
   */
  record Scalar(String text, Kind kind, int line, int column) implements YamlNode {
    @Override
    public String describe() {
      return "'" + text + "'";
    }
  }

  /** What YAML (or JSON) resolved a scalar to, before any binding. */
  enum Kind {
    /** Quoted, or plain text that is no number or boolean. */
    STRING,
    INTEGER,
    FLOAT,
    BOOLEAN
  }

  /** An explicit or implied null ({@code key:} with nothing after it, {@code ~}, {@code null}). */
  record Null(int line, int column) implements YamlNode {
    @Override
    public String describe() {
      return "null";
    }
  }

  record Mapping(Map<String, Entry> entries, int line, int column) implements YamlNode {
    @Override
    public String describe() {
      return "a mapping";
    }
  }

  /** One key of a mapping with the key's own location (where "unknown key" points). */
  record Entry(String key, int line, int column, YamlNode value) {}

  record Sequence(List<YamlNode> items, int line, int column) implements YamlNode {
    @Override
    public String describe() {
      return "a list";
    }
  }
}
