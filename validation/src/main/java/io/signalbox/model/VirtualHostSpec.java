package io.signalbox.model;

import java.util.List;

public record VirtualHostSpec(String name, List<String> domains, List<RouteSpec> routes) {
  public VirtualHostSpec {
    domains = domains == null ? List.of() : List.copyOf(domains);
    routes = routes == null ? List.of() : List.copyOf(routes);
  }
}
