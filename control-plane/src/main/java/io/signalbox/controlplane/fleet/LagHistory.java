package io.signalbox.controlplane.fleet;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fleet's lag over the last minutes: a fixed ring of samples, the oldest overwritten first, so
 * the dashboard can draw "who was behind, and since when" without a time-series database. Memory is
 * bounded by capacity × groups per sample ({@link FleetMetrics#MAX_GROUPS} at most, the rest folded
 * into {@code other}).
 */
public final class LagHistory {

  /** One node group at one moment: {@code behind} clients do not hold the current epoch. */
  public record GroupLag(String group, int clients, int behind, long maxLagEpochs, double maxLagSeconds) {}

  /** The whole fleet at one moment, and each group (largest first). */
  public record Sample(Instant at, long epoch, int clients, int behind, long maxLagEpochs, double maxLagSeconds,
      List<GroupLag> groups) {
    public Sample {
      groups = List.copyOf(groups);
    }

    /** This sample with only its {@code n} largest groups. */
    public Sample largestGroups(int n) {
      return n >= groups.size() ? this
          : new Sample(at, epoch, clients, behind, maxLagEpochs, maxLagSeconds, groups.subList(0, n));
    }
  }

  private final Sample[] ring; // guarded by this
  private int next; // guarded by this
  private int size; // guarded by this

  LagHistory(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.ring = new Sample[capacity];
  }

  synchronized void record(Sample sample) {
    ring[next] = sample;
    next = (next + 1) % ring.length;
    size = Math.min(size + 1, ring.length);
  }

  /** Samples taken at or after {@code from}, oldest first. */
  public synchronized List<Sample> since(Instant from) {
    List<Sample> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      Sample s = ring[(next - size + i + ring.length) % ring.length];
      if (!s.at().isBefore(from)) {
        out.add(s);
      }
    }
    return out;
  }

  /** The fleet as {@link Fleet#view} sees it now, summed per group. */
  static Sample sample(Instant at, long epoch, List<Fleet.ClientView> views) {
    Map<String, List<Fleet.ClientView>> byGroup = new TreeMap<>();
    views.forEach(v -> byGroup.computeIfAbsent(v.group(), g -> new ArrayList<>()).add(v));
    List<GroupLag> groups = FleetMetrics.fold(byGroup).stream()
        .map(g -> new GroupLag(g.group(), g.clients(), g.clients() - g.onCurrentEpoch(), g.maxLagEpochs(),
            g.maxLagSeconds()))
        .toList();
    Fleet.Group all = Fleet.group("", views);
    return new Sample(at, epoch, all.clients(), all.clients() - all.onCurrentEpoch(), all.maxLagEpochs(),
        all.maxLagSeconds(), groups);
  }
}
