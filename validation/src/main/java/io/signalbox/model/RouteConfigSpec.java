package io.signalbox.model;

import java.util.List;

public record RouteConfigSpec(String name, List<VirtualHostSpec> virtualHosts) {
  public RouteConfigSpec {
    virtualHosts = virtualHosts == null ? List.of() : List.copyOf(virtualHosts);
  }
}
