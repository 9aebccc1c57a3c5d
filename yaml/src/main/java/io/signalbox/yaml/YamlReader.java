package io.signalbox.yaml;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** Reads YAML text into a located {@link YamlNode} tree, collecting syntax problems. */
final class YamlReader {

  /**
   * SnakeYAML refuses documents over 3 Mi code points by default; an endpoint file of 10,000
   * clusters x 10 endpoints is about 8 MB. 256 Mi keeps a bound against runaway input.
   */
  private static final int MAX_CODE_POINTS = 256 * 1024 * 1024;

  private static final YAMLFactory FACTORY = YAMLFactory.builder()
          // "key:" with nothing after it is null (absent), while "key: ''" stays an empty string.
          .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
          .loaderOptions(loaderOptions())
          .build();

  private static org.yaml.snakeyaml.LoaderOptions loaderOptions() {
    org.yaml.snakeyaml.LoaderOptions options = new org.yaml.snakeyaml.LoaderOptions();
    options.setCodePointLimit(MAX_CODE_POINTS);
    return options;
  }

  private final String source;
  private final List<Violation> violations;

  YamlReader(String source, List<Violation> violations) {
    this.source = source;
    this.violations = violations;
  }

  /**
   * Strict JSON, for documents that are JSON: JSON is YAML, and the same tree comes out, but
   * Jackson's JSON tokenizer reads a 10,000-cluster endpoint file (8 MB) some 50 times faster than
   * SnakeYAML's scanner, which made re-reading such a file take seconds per change.
   */
  private static final JsonFactory JSON = JsonFactory.builder().build();

  /** The document's root, or null when the text is not valid YAML (a violation is recorded). */
  YamlNode read(String text) {
    if (startsLikeJson(text)) {
      YamlNode json = readJson(text);
      if (json != null) {
        return json;
      }
      // Not strict JSON after all (YAML flow style, comments, a syntax error): YAML reads it and
      // reports any problem as it would have.
    }
    return readYaml(text);
  }

  private static boolean startsLikeJson(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isWhitespace(c) && c != '\uFEFF') {
        return c == '{';
      }
    }
    return false;
  }

  /** The root of a strict JSON document, or null if it is not one; its violations are kept only then. */
  private YamlNode readJson(String text) {
    List<Violation> found = new ArrayList<>();
    YamlReader reader = new YamlReader(source, found);
    try (JsonParser parser = JSON.createParser(text)) {
      parser.nextToken();
      YamlNode root = reader.readValue(parser);
      if (parser.nextToken() != null) {
        return null;
      }
      violations.addAll(found);
      return root;
    } catch (IOException e) {
      return null;
    }
  }

  private YamlNode readYaml(String text) {
    try (JsonParser parser = FACTORY.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        // An empty file is an empty mapping: every setting takes its default.
        return new YamlNode.Mapping(Map.of(), 1, 1);
      }
      YamlNode root = readValue(parser);
      if (parser.nextToken() != null) {
        JsonLocation at = parser.currentTokenLocation();
        violations.add(violation(at.getLineNr(), at.getColumnNr(), "expected a single YAML document, found another"));
        return null;
      }
      return root;
    } catch (JacksonException e) {
      if (e.getCause() instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
        // SnakeYAML's own problem ("found unexpected end of stream") says more than Jackson's summary.
        String context = yaml.getContext() == null ? "" : " (" + yaml.getContext() + ")";
        violations.add(
            violation(yaml.getProblemMark().getLine() + 1, yaml.getProblemMark().getColumn() + 1,
                "YAML syntax error: " + firstLine(yaml.getProblem()) + context));
        return null;
      }
      JsonLocation at = e.getLocation();
      int line = at == null ? 0 : at.getLineNr();
      int column = at == null ? 0 : at.getColumnNr();
      violations.add(violation(line, column, "YAML syntax error: " + firstLine(e.getOriginalMessage())));
      return null;
    } catch (IOException e) {
      // Reading from a String does no I/O; Jackson's signature forces the catch.
      violations.add(violation(0, 0, "YAML could not be read: " + e.getMessage()));
      return null;
    }
  }

  private YamlNode readValue(JsonParser parser) throws IOException {
    JsonLocation at = parser.currentTokenLocation();
    int line = at.getLineNr();
    int column = at.getColumnNr();
    JsonToken token = parser.currentToken();
    if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
      // Jackson hands an alias over as its bare name, which would silently bind "*x" as "x".
      violations.add(
          violation(line, column, "YAML aliases are not supported, write the value out (found '*" + parser.getText() + "')"));
      return new YamlNode.Null(line, column);
    }
    switch (token) {
      case START_OBJECT -> {
        Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          JsonLocation keyAt = parser.currentTokenLocation();
          String key = parser.currentName();
          parser.nextToken();
          YamlNode value = readValue(parser);
          YamlNode.Entry entry = new YamlNode.Entry(key, keyAt.getLineNr(), keyAt.getColumnNr(), value);
          if (entries.putIfAbsent(key, entry) != null) {
            // YAML forbids duplicate keys, and silently taking the last one hides typos.
            violations.add(violation(entry.line(), entry.column(), "duplicate key '" + key + "'"));
          }
        }
        return new YamlNode.Mapping(entries, line, column);
      }
      case START_ARRAY -> {
        List<YamlNode> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          items.add(readValue(parser));
        }
        return new YamlNode.Sequence(items, line, column);
      }
      case VALUE_NULL -> {
        return new YamlNode.Null(line, column);
      }
      default -> {
        return new YamlNode.Scalar(parser.getText(), kindOf(token), line, column);
      }
    }
  }

  private static YamlNode.Kind kindOf(JsonToken token) {
    return switch (token) {
      case VALUE_NUMBER_INT -> YamlNode.Kind.INTEGER;
      case VALUE_NUMBER_FLOAT -> YamlNode.Kind.FLOAT;
      case VALUE_TRUE, VALUE_FALSE -> YamlNode.Kind.BOOLEAN;
      default -> YamlNode.Kind.STRING;
    };
  }

  private Violation violation(int line, int column, String message) {
    return Violation.error(StrictYaml.RULE, source, "line " + line + ", column " + column, message);
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable input";
    }
    String trimmed = message.strip();
    int newline = trimmed.indexOf('\n');
    return newline < 0 ? trimmed : trimmed.substring(0, newline).strip();
  }
}
