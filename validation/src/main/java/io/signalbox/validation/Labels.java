package io.signalbox.validation;

/** How violation paths name resources: by name when there is a usable one, else by position. */
final class Labels {

  private Labels() {}

  static String of(String kind, String listName, String name, int index) {
    return name == null || name.isBlank() ? listName + "[" + index + "]" : kind + " '" + name + "'";
  }

  static String field(String label, String field) {
    return label + ": " + field;
  }

  static String endpoints(String cluster) {
    return "endpoints of cluster '" + cluster + "'";
  }
}
