package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.Lifecycle;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Endpoints a source removed drain before they go, however little else changed. */
class DeparturesTest {

  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  private static final Duration DRAIN = Duration.ofSeconds(30);
  private static final EndpointSpec A = new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:x");
  private static final EndpointSpec B = new EndpointSpec("10.0.0.2", 80, "a", 1, 0, EndpointState.READY, "file:x");
  private static final EndpointSpec C = new EndpointSpec("10.0.0.3", 80, "a", 1, 0, EndpointState.READY, "file:x");

  private final Departures departures = new Departures();

  private List<Lifecycle.Departure> update(Map<String, List<EndpointSpec>> published,
      Map<String, List<EndpointSpec>> current, Instant now) {
    return departures.update(published, current, cluster -> DRAIN, ref -> true, now);
  }

  private static Map<String, List<EndpointSpec>> clusters(Object... nameThenList) {
    Map<String, List<EndpointSpec>> out = new TreeMap<>();
    for (int i = 0; i < nameThenList.length; i += 2) {
      @SuppressWarnings("unchecked")
      List<EndpointSpec> list = (List<EndpointSpec>) nameThenList[i + 1];
      out.put((String) nameThenList[i], list);
    }
    return out;
  }

  @Test
  void theSameListsOrEqualOnesHaveNoDepartures() {
    List<EndpointSpec> web = List.of(A, B);

    assertThat(update(clusters("web", web), clusters("web", web), T0)).isEmpty();
    assertThat(update(clusters("web", web), clusters("web", new ArrayList<>(web)), T0)).isEmpty();
  }

  @Test
  void anEndpointRemovedFromOneClusterDrainsWhileTheOthersAreUntouched() {
    List<EndpointSpec> api = List.of(C);
    var published = clusters("api", api, "web", List.of(A, B));

    var leaving = update(published, clusters("api", api, "web", List.of(A)), T0);

    assertThat(leaving).singleElement().satisfies(d -> {
      assertThat(d.endpoint()).isEqualTo(new EndpointRef("web", "10.0.0.2", 80));
      assertThat(d.removeAfter()).isEqualTo(T0.plus(DRAIN));
    });
    // The next epoch holds it DRAINING; the source's list of web is unchanged since: it keeps draining.
    var next = clusters("api", api, "web", List.of(A, B.withState(EndpointState.DRAINING)));
    assertThat(update(next, clusters("api", api, "web", List.of(A)), T0.plusSeconds(1)))
        .extracting(Lifecycle.Departure::departedAt).containsExactly(T0);
  }

  @Test
  void aClusterASourceNoLongerReportsDrainsAllItsEndpoints() {
    var leaving = update(clusters("web", List.of(A, B)), clusters(), T0);

    assertThat(leaving).extracting(d -> d.endpoint().key()).containsExactlyInAnyOrder("10.0.0.1:80", "10.0.0.2:80");
  }

  @Test
  void anEndpointThatComesBackStopsLeaving() {
    update(clusters("web", List.of(A, B)), clusters("web", List.of(A)), T0);

    assertThat(update(clusters("web", List.of(A, B.withState(EndpointState.DRAINING))), clusters("web", List.of(A, B)),
        T0.plusSeconds(1))).isEmpty();
  }
}
