package io.signalbox.controlplane.telemetry;

import java.util.Objects;

/**
 * A locality as a client names it in a load report ({@code upstream_locality_stats.locality}).
 * Empty strings, never null: a client that sends no locality reports {@code ("", "", "")}.
 */
public record Locality(String region, String zone, String subZone) implements Comparable<Locality> {

  public static final Locality NONE = new Locality("", "", "");

  public Locality {
    region = Objects.requireNonNullElse(region, "");
    zone = Objects.requireNonNullElse(zone, "");
    subZone = Objects.requireNonNullElse(subZone, "");
  }

  /** {@code region/zone/subZone} with empty parts kept, e.g. {@code "/zone-a/"}: one unambiguous label. */
  public String label() {
    return region + "/" + zone + "/" + subZone;
  }

  @Override
  public int compareTo(Locality other) {
    int c = region.compareTo(other.region);
    if (c == 0) {
      c = zone.compareTo(other.zone);
    }
    return c != 0 ? c : subZone.compareTo(other.subZone);
  }
}
