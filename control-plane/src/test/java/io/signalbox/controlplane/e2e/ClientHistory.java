package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What raw ADS clients ({@link XdsRecorder}) were sent over a drill, one recorder per run of the
 * server in order, held to DESIGN invariant 5: no version goes back, and nothing that left a
 * client's view comes back.
 */
final class ClientHistory {

  private ClientHistory() {}

  /**
   * Each type's version (the epoch that last changed it) never goes back: not within a stream,
   * and not from the last response before a kill or outage to the first one after it.
   */
  static void assertVersionsNeverWentBack(List<XdsRecorder> inOrder) {
    Map<String, XdsRecorder.Response> newest = new HashMap<>();
    int run = 0;
    for (XdsRecorder r : inOrder) {
      run++;
      for (XdsRecorder.Response response : r.history()) {
        XdsRecorder.Response before = newest.put(response.typeUrl(), response);
        if (before != null) {
          assertThat(response.epoch()).as("client %d: %s version %s after %s", run, response.typeUrl(),
              response.version(), before.version()).isGreaterThanOrEqualTo(before.epoch());
        }
      }
    }
    assertThat(newest).as("responses the raw clients recorded").isNotEmpty();
  }

  /**
   * Endpoints of {@code cluster} offered again (even as DRAINING) after an assignment without them
   * had reached a client; for a cluster whose endpoints, once gone from the input, never return.
   */
  static Set<String> endpointsOfferedAgain(List<XdsRecorder> inOrder, String cluster) {
    Set<String> seen = new LinkedHashSet<>();
    Set<String> gone = new TreeSet<>();
    Set<String> back = new TreeSet<>();
    for (XdsRecorder.Assignment a : assignments(inOrder, cluster)) {
      Set<String> now = a.endpoints().keySet();
      now.stream().filter(gone::contains).map(e -> e + " (epoch " + a.epoch() + ")").forEach(back::add);
      seen.stream().filter(e -> !now.contains(e)).forEach(gone::add);
      seen.addAll(now);
    }
    return back;
  }

  /** Endpoints of {@code cluster} that some assignment no longer had. */
  static Set<String> gone(List<XdsRecorder> inOrder, String cluster) {
    Set<String> seen = new LinkedHashSet<>();
    Set<String> gone = new TreeSet<>();
    for (XdsRecorder.Assignment a : assignments(inOrder, cluster)) {
      seen.stream().filter(e -> !a.endpoints().containsKey(e)).forEach(gone::add);
      seen.addAll(a.endpoints().keySet());
    }
    return gone;
  }

  private static List<XdsRecorder.Assignment> assignments(List<XdsRecorder> inOrder, String cluster) {
    List<XdsRecorder.Assignment> out = new ArrayList<>();
    inOrder.forEach(r -> r.assignments().stream().filter(a -> a.cluster().equals(cluster)).forEach(out::add));
    return out;
  }
}
