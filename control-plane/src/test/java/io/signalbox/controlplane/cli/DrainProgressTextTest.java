package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** What {@code drain --wait} prints for a drain's progress as the server reports it. */
class DrainProgressTextTest {

  private static JsonNode json(String text) throws Exception {
    return new ObjectMapper().readTree(text);
  }

  @Test
  void onceEveryClientAckedADrainWithLoadReportingShowsTheWorkInFlight() throws Exception {
    JsonNode p = json("{\"drainingEpoch\": 14, \"clientsAcked\": 3, \"clientsTotal\": 3, \"deadlinePassed\": false,"
        + " \"deadline\": \"2099-01-01T00:00:00Z\", \"loadReporting\": true,"
        + " \"verdict\": \"in flight: 1 (node-a 1); deadline in 25s\"}");

    assertThat(DrainCommand.progress(p))
        .isEqualTo("3 of 3 clients acknowledged epoch 14; in flight: 1 (node-a 1); deadline in 25s");
  }

  @Test
  void whileClientsHaveNotAckedTheCountAndTheDeadlineAreShown() throws Exception {
    JsonNode p = json("{\"drainingEpoch\": 14, \"clientsAcked\": 2, \"clientsTotal\": 3, \"deadlinePassed\": true,"
        + " \"deadline\": \"2026-01-01T00:00:00Z\", \"loadReporting\": true, \"verdict\": \"...\"}");

    assertThat(DrainCommand.progress(p)).isEqualTo("2 of 3 clients acknowledged epoch 14, deadline passed");
  }

  @Test
  void withoutLoadReportingTheProgressIsAsBefore() throws Exception {
    JsonNode p = json("{\"drainingEpoch\": 14, \"clientsAcked\": 1, \"clientsTotal\": 1, \"deadlinePassed\": true,"
        + " \"deadline\": \"2026-01-01T00:00:00Z\", \"loadReporting\": false,"
        + " \"verdict\": \"deadline passed; no load reporting\"}");

    assertThat(DrainCommand.progress(p)).isEqualTo("1 of 1 client acknowledged epoch 14, deadline passed");
  }
}
