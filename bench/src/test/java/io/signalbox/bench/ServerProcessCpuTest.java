package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load tool's CPU readings, from {@code /proc}: a process's own time, and a whole process tree's
 * (the embedded PostgreSQL's, found through its pid file).
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
  void countsAProcessTreeNamedByItsPidFile(@TempDir Path dir) throws Exception {
    // A parent that only waits, and a child that spins until it is stopped.
    Process parent = new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' & wait").start();
    Process idle = new ProcessBuilder("sleep", "60").start();
    try {
      Path pidFile = Files.writeString(dir.resolve("postmaster.pid"), parent.pid() + "\n/some/data/dir\n");
      await().atMost(Duration.ofSeconds(30)).until(() -> ServerProcess.postgresCpuMillis(dir) >= 200);

      Files.writeString(pidFile, idle.pid() + "\n");
      assertThat(ServerProcess.postgresCpuMillis(dir)).as("an idle process with no children").isLessThan(100);
      assertThat(ServerProcess.postgresCpuMillis(dir.resolve("no-cluster-here"))).isZero();
    } finally {
      parent.descendants().forEach(ProcessHandle::destroy);
      parent.destroy();
      idle.destroy();
      parent.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
