package io.signalbox.source.file;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An endpoint file cut into one text block per cluster, so that a new version can be compared with
 * the last one block by block and only the blocks whose bytes changed read again.
 *
 * <p>Only the plain layout is cut, the one every generator and most people write:
 *
 * <pre>
 * # comments and blank lines
 * clusters:
 *   web:                              a block starts at a key alone on its line, at the first key's indent
 *     - { address: 10.0.0.1, port: 80 }
 *   - { address: 10.0.0.2, port: 80 }  sequence items at that indent, and anything indented deeper,
 *   # comments and blank lines          and comments and blank lines belong to the block above
 * </pre>
 *
 * Anything else (other top-level keys, document markers, directives, flow style at the top, a key
 * with a value or a comment on its line, tabs or carriage returns in indentation, a line indented
 * less than the keys) is not cut, and the file is read whole. Each block, read on its own under a
 * {@code clusters:} line, yields the same cluster as it does inside the whole document whenever it
 * reads without error on its own: a cut can only fall inside a construct (a quoted scalar, a flow
 * collection) that the lines before it leave unterminated, and that block alone then fails to read.
 */
record ClusterBlocks(List<Block> blocks) {

  /** A cluster's text: {@code [start, end)} of the document, from its key line to the next key line. */
  record Block(String key, int start, int end) {
    int length() {
      return end - start;
    }
  }

  ClusterBlocks {
    blocks = List.copyOf(blocks);
  }

  /** The document's blocks, or empty when its layout is not the plain one. */
  static Optional<ClusterBlocks> of(String text) {
    if (text.indexOf('\r') >= 0) {
      return Optional.empty();
    }
    List<Block> blocks = new ArrayList<>();
    boolean inClusters = false;
    int indent = -1;
    String key = null;
    int keyStart = -1;
    int n = text.length();
    int pos = 0;
    while (pos < n) {
      int newline = text.indexOf('\n', pos);
      int lineEnd = newline < 0 ? n : newline;
      int next = newline < 0 ? n : newline + 1;
      int lead = pos;
      while (lead < lineEnd && text.charAt(lead) == ' ') {
        lead++;
      }
      if (lead < lineEnd && text.charAt(lead) == '\t') {
        return Optional.empty();
      }
      if (lead == lineEnd || text.charAt(lead) == '#') {
        pos = next; // blank or comment: meaningless to YAML wherever it is
        continue;
      }
      int lineIndent = lead - pos;
      if (!inClusters) {
        if (lineIndent != 0 || !isClustersLine(text, pos, lineEnd)) {
          return Optional.empty();
        }
        inClusters = true;
      } else if (lineIndent == 0) {
        return Optional.empty();
      } else if (indent < 0 || lineIndent == indent) {
        indent = lineIndent;
        if (key != null && isSequenceItem(text, lead, lineEnd)) {
          pos = next;
          continue;
        }
        String k = keyAlone(text, lead, lineEnd);
        if (k == null) {
          return Optional.empty();
        }
        if (key != null) {
          blocks.add(new Block(key, keyStart, pos));
        }
        key = k;
        keyStart = pos;
      } else if (lineIndent < indent) {
        return Optional.empty();
      }
      pos = next;
    }
    if (key == null) {
      return Optional.empty();
    }
    blocks.add(new Block(key, keyStart, n));
    return Optional.of(new ClusterBlocks(blocks));
  }

  /** {@code clusters:} and nothing after it but spaces. */
  private static boolean isClustersLine(String text, int start, int end) {
    String word = "clusters:";
    if (!text.startsWith(word, start) || start + word.length() > end) {
      return false;
    }
    return onlySpaces(text, start + word.length(), end);
  }

  private static boolean isSequenceItem(String text, int lead, int end) {
    return text.charAt(lead) == '-' && (lead + 1 == end || text.charAt(lead + 1) == ' ');
  }

  /** The key of a line that is a plain key and a colon alone, or null. */
  private static String keyAlone(String text, int lead, int end) {
    int i = lead;
    if (i >= end || !keyStart(text.charAt(i))) {
      return null;
    }
    while (i < end && keyPart(text.charAt(i))) {
      i++;
    }
    if (i >= end || text.charAt(i) != ':' || !onlySpaces(text, i + 1, end)) {
      return null;
    }
    return text.substring(lead, i);
  }

  private static boolean keyStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  private static boolean keyPart(char c) {
    return keyStart(c) || c == '.' || c == '-' || c == '/';
  }

  private static boolean onlySpaces(String text, int from, int end) {
    for (int i = from; i < end; i++) {
      if (text.charAt(i) != ' ') {
        return false;
      }
    }
    return true;
  }
}
