package io.signalbox.controlplane.admin;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Every operator change is logged at INFO with who made it and why, not only audited in the store. */
class OperatorLogTest {

  @TempDir Path dir;
  RunningSignalbox sb;
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger routerLog = (Logger) LoggerFactory.getLogger(ApiRouter.class);

  @BeforeEach
  void start() {
    sb = RunningSignalbox.start(dir, "port: 0");
    sb.publishNewEpoch();
    sb.publishNewEpoch();
    logs.start();
    routerLog.addAppender(logs);
  }

  @AfterEach
  void stop() {
    routerLog.detachAppender(logs);
    sb.close();
  }

  @Test
  void drainUndrainEjectFreezeUnfreezeAndRollbackAreLoggedWithActorAndReason() {
    String endpoint = "/api/v1/clusters/greeter/endpoints/127.0.0.1:50001";
    assertThat(sb.post(endpoint + "/drain", "{\"reason\": \"kernel upgrade\"}", null).statusCode()).isEqualTo(202);
    assertThat(sb.send(HttpRequest.newBuilder(sb.uri(endpoint + "/drain")).DELETE()).statusCode()).isEqualTo(200);
    assertThat(sb.post(endpoint + "/eject", "{\"reason\": \"5xx storm\"}", null).statusCode()).isEqualTo(202);
    assertThat(sb.post("/api/v1/freeze", "{\"reason\": \"incident 42\"}", null).statusCode()).isEqualTo(200);
    assertThat(sb.post("/api/v1/unfreeze", "{\"reason\": \"resolved\"}", null).statusCode()).isEqualTo(200);
    assertThat(sb.post("/api/v1/rollback", "{\"to\": 1, \"reason\": \"bad deploy\"}", null).statusCode())
        .isBetween(200, 202);

    assertThat(logs.list).allMatch(e -> e.getLevel() == Level.INFO);
    assertThat(logs.list.stream().map(ILoggingEvent::getFormattedMessage)).containsExactly(
        "operator drain greeter/127.0.0.1:50001 by anonymous: kernel upgrade",
        "operator undrain greeter/127.0.0.1:50001 by anonymous",
        "operator eject greeter/127.0.0.1:50001 by anonymous: 5xx storm (for PT30S)",
        "operator freeze epochs by anonymous: incident 42",
        "operator unfreeze epochs by anonymous: resolved",
        "operator rollback epoch 1 by anonymous: bad deploy");
  }
}
