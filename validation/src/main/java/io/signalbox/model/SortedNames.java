package io.signalbox.model;

import java.util.Arrays;

/**
 * Finding a cluster's remembered entry in a name-ordered array while walking a name-ordered map:
 * the per-cluster memos of the writer (merge, guards, validation) keep their entries this way
 * instead of in hash maps probed 10,000 times an epoch.
 */
public final class SortedNames {

  private SortedNames() {}

  /**
   * Where {@code name} is in {@code names} (sorted, no duplicates), or a negative number if it is
   * not there. Looks at {@code index} first: walking the same clusters as last time, the i-th name
   * is the i-th remembered one, and only a cluster that came or went costs a binary search.
   */
  public static int indexOf(String[] names, int index, String name) {
    if (index < names.length && (names[index] == name || names[index].equals(name))) {
      return index;
    }
    return Arrays.binarySearch(names, name);
  }
}
