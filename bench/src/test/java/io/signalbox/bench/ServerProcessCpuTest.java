package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The load tool's CPU readings: a process's own time, and its descendants' (the embedded
 * PostgreSQL's processes under a Signalbox server), read from {@code /proc}.
 */
class ServerProcessCpuTest {

  // A stat line whose command contains spaces and a parenthesis, as PostgreSQL's process titles do:
  // utime 7, stime 3, cutime 20, cstime 5 (fields 14-17).
  private static final String STAT =
      "4242 (postgres: signalbox (idle)) S 4200 4200 4200 0 -1 4194560 100 0 0 0 7 3 20 5 20 0 1 0 500 1000 10";

  @Test
  void readsOwnAndReapedTimeAfterTheCommandName() {
    assertThat(ServerProcess.cpuTicks(STAT)).isEqualTo(10);
    assertThat(ServerProcess.cpuTicksWithReaped(STAT)).isEqualTo(35);
  }

  @Test
  void countsWhatTheDescendantsOfAProcessUsed() throws Exception {
    // A parent that only waits, and a child that spins until it is stopped.
    Process parent = new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' & wait").start();
    try {
      await().atMost(Duration.ofSeconds(30))
          .until(() -> ServerProcess.descendantsCpuMillis(parent.pid()) >= 200);
      Process idle = new ProcessBuilder("sleep", "60").start();
      try {
        assertThat(ServerProcess.descendantsCpuMillis(idle.pid())).as("no descendants").isZero();
      } finally {
        idle.destroy();
      }
    } finally {
      parent.descendants().forEach(ProcessHandle::destroy);
      parent.destroy();
      parent.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
