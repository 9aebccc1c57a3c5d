package io.signalbox.controlplane.views;

import io.signalbox.model.EndpointField;
import io.signalbox.model.EndpointSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One field of one endpoint that differs between two versions of a cluster's endpoints, as in
 * {@code 127.0.0.1:50051 weight 1 -> 5}: a changed {@code ENDPOINT/greeter} says little until it
 * says which endpoint and what of it moved.
 *
 * @param resource the changed resource, {@code TYPE/name}
 * @param endpoint {@code address:port}
 * @param field an attribute's name ({@link EndpointField#component()}): {@code weight}, {@code state}, ...
 */
public record EndpointFieldChange(String resource, String endpoint, String field, String from, String to) {

  /** {@code 127.0.0.1:50051 weight 1 -> 5} */
  String text() {
    return endpoint + " " + field + " " + from + " -> " + to;
  }

  /**
   * Every field that differs, endpoint by endpoint in {@code after}'s order, of the endpoints in
   * both lists; endpoints that came or went are state transitions, reported apart.
   */
  static List<EndpointFieldChange> between(String resource, List<EndpointSpec> before, List<EndpointSpec> after) {
    Map<String, EndpointSpec> was = new LinkedHashMap<>();
    for (EndpointSpec e : before) {
      was.put(e.key(), e);
    }
    List<EndpointFieldChange> out = new ArrayList<>();
    for (EndpointSpec now : after) {
      EndpointSpec old = was.get(now.key());
      if (old == null) {
        continue;
      }
      for (EndpointField f : EndpointField.ALL) {
        if (f.isAttribute()) {
          add(out, resource, now.key(), f.component(), f.text(old), f.text(now));
        }
      }
    }
    return out;
  }

  private static void add(List<EndpointFieldChange> out, String resource, String endpoint, String field, String from,
      String to) {
    if (!Objects.equals(from, to)) {
      out.add(new EndpointFieldChange(resource, endpoint, field, from, to));
    }
  }
}
