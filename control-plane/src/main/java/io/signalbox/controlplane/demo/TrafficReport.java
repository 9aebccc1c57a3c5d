package io.signalbox.controlplane.demo;

import java.time.Duration;
import java.util.List;
import java.util.StringJoiner;

/**
 * The demo's per-backend traffic: how many requests each backend answered since the last report.
 * A drained backend's count falls to 0 once every client holds the drain, which is what the
 * dashboard (which shows what clients were sent, not what they did) cannot show.
 *
 * <p>Not thread-safe: one thread calls {@link #next}.
 */
public final class TrafficReport {

  private final List<DemoBackends.Backend> backends;
  private final Duration every;
  private final long[] last;

  public TrafficReport(List<DemoBackends.Backend> backends, Duration every) {
    this.backends = List.copyOf(backends);
    this.every = every;
    this.last = new long[backends.size()];
  }

  /**
   * {@code demo: requests answered in the last 5s: b1 127.0.0.1:40001 50, b2 127.0.0.1:40002 0, ...}.
   */
  public String next() {
    StringJoiner line = new StringJoiner(", ", "demo: requests answered in the last " + seconds(every) + ": ", "");
    for (int i = 0; i < backends.size(); i++) {
      DemoBackends.Backend b = backends.get(i);
      long now = b.answered();
      line.add(b.name() + " " + b.address() + " " + (now - last[i]));
      last[i] = now;
    }
    return line.toString();
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }
}
