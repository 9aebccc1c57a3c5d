package io.signalbox.model;

import java.util.List;

/** Exactly one of {@code prefix} or {@code path}, plus optional header matches. */
public record RouteMatchSpec(String prefix, String path, List<HeaderMatchSpec> headers) {
  public RouteMatchSpec {
    headers = headers == null ? List.of() : List.copyOf(headers);
  }
}
