package io.signalbox.controlplane.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Rows under a header, columns padded to their widest cell plus two spaces; the last column is
 * not padded. A header of blanks prints no header line.
 */
record Table(List<String> header, List<List<String>> rows) {

  Table {
    header = List.copyOf(header);
    List<List<String>> copy = new ArrayList<>();
    for (List<String> row : rows) {
      if (row.size() != header.size()) {
        throw new IllegalArgumentException("row " + row + " has " + row.size() + " cells, header " + header.size());
      }
      copy.add(row.stream().map(c -> c == null ? "" : c).toList());
    }
    rows = List.copyOf(copy);
  }

  /** One row's cells; null is an empty cell. */
  static List<String> cells(Object... cells) {
    List<String> row = new ArrayList<>();
    for (Object c : cells) {
      row.add(c == null ? "" : c.toString());
    }
    return row;
  }

  String render() {
    int[] widths = new int[header.size()];
    List<List<String>> all = new ArrayList<>();
    // A header of blanks is a key/value list: no header line.
    if (header.stream().anyMatch(h -> !h.isBlank())) {
      all.add(header);
    }
    all.addAll(rows);
    for (List<String> row : all) {
      for (int i = 0; i < row.size(); i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (List<String> row : all) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        line.append(row.get(i));
        if (i < row.size() - 1) {
          line.append(" ".repeat(widths[i] - row.get(i).length() + 2));
        }
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }
}
